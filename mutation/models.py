"""A Mutation format session: four seats, the draft of 64 cards, decks and Laboratories, the 12
games of the six rounds, every mutation glued on a deck card, and the Mutation Points table."""

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


def new_join_token() -> str:
    return secrets.token_urlsafe(18)


class MutationSession(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        DECKBUILDING = "deckbuilding", _("Deckbuilding")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=100)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="organised_mutation_sessions",
        verbose_name=_("organiser"),
    )
    expansion_a = models.ForeignKey(
        "cards.Expansion", on_delete=models.PROTECT, related_name="+", verbose_name=_("expansion")
    )
    expansion_b = models.ForeignKey(
        "cards.Expansion",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("second expansion"),
    )
    seed = models.BigIntegerField(_("seed"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("Mutation session")
        verbose_name_plural = _("Mutation sessions")
        constraints = [
            models.CheckConstraint(
                condition=~Q(expansion_a=F("expansion_b")),
                name="mutation_session_two_different_expansions",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """One of the four players: a registered user or a named guest, reached by a join link."""

    session = models.ForeignKey(MutationSession, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(
        _("seat"), validators=[MinValueValidator(1), MaxValueValidator(4)]
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="mutation_seats",
        verbose_name=_("player"),
    )
    guest_name = models.CharField(_("guest name"), max_length=60, blank=True)
    join_token = models.CharField(max_length=32, unique=True, default=new_join_token)
    stronghold = models.ForeignKey(
        "cards.Card",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Stronghold"),
    )
    deck_chosen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="mutation_seat_number"),
            models.UniqueConstraint(
                fields=["session", "user"],
                condition=Q(user__isnull=False),
                name="mutation_seat_one_per_user",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=4), name="mutation_seat_number_1_4"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        if self.guest_name:
            return self.guest_name
        if self.user is not None:
            return self.user.get_username()
        return str(_("Seat %(number)s") % {"number": self.number})


class DraftCard(models.Model):
    """One of the session's 64 cards: whom it was dealt to, who picked it, and whether it went
    into that player's deck (otherwise it sits in their Laboratory)."""

    session = models.ForeignKey(
        MutationSession, on_delete=models.CASCADE, related_name="draft_cards"
    )
    card = models.ForeignKey("cards.Card", on_delete=models.PROTECT, related_name="+")
    dealt_to = models.PositiveSmallIntegerField()
    deal_order = models.PositiveSmallIntegerField()
    picked_by = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="picks"
    )
    pick_number = models.PositiveSmallIntegerField(null=True, blank=True)
    picked_at = models.DateTimeField(null=True, blank=True)
    in_deck = models.BooleanField(default=False)

    class Meta:
        ordering = ["session", "dealt_to", "deal_order"]
        constraints = [
            models.UniqueConstraint(fields=["session", "card"], name="mutation_card_dealt_once"),
            models.UniqueConstraint(
                fields=["session", "dealt_to", "deal_order"], name="mutation_deal_position"
            ),
            models.UniqueConstraint(
                fields=["picked_by", "pick_number"], name="mutation_one_card_per_pick"
            ),
            models.CheckConstraint(
                condition=Q(picked_by__isnull=True, pick_number__isnull=True)
                | Q(picked_by__isnull=False, pick_number__isnull=False),
                name="mutation_pick_has_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}: {self.card_id}"


class Game(models.Model):
    """One of the 12 duels: round 1-6, table 1-2, and its winner once played."""

    session = models.ForeignKey(MutationSession, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(6)]
    )
    table = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(2)]
    )
    seat_a = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    seat_b = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    winner = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["session", "round", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "round", "table"], name="mutation_game_round_table"
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("seat_a")) | Q(winner=F("seat_b")),
                name="mutation_game_winner_is_a_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}: round {self.round}, table {self.table}"


class Mutation(models.Model):
    """An element cut from a Laboratory card and glued on a deck creature, kept as history."""

    class Kind(models.TextChoices):
        ATTACK = "attack", _("attack value")
        HP = "hp", _("HP value")
        MANA = "mana", _("mana value")
        ABILITY = "ability", _("special ability")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="mutations")
    phase = models.PositiveSmallIntegerField(
        _("Mutation Phase"), validators=[MinValueValidator(1), MaxValueValidator(6)]
    )
    target = models.ForeignKey(DraftCard, on_delete=models.CASCADE, related_name="mutations")
    source = models.ForeignKey(DraftCard, on_delete=models.CASCADE, related_name="elements_used")
    # As cut from the Laboratory card: "attack", "hp", "mana" or "ability:N" (printed position).
    element = models.CharField(max_length=20)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    value_before = models.PositiveSmallIntegerField(null=True, blank=True)
    value_after = models.PositiveSmallIntegerField(null=True, blank=True)
    ability_code = models.CharField(max_length=60, blank=True)  # `aura:CODE` for an Aura
    covers = models.JSONField(default=list, blank=True)  # printed ability positions covered
    covered_abilities = models.JSONField(default=list, blank=True)
    cost = models.DecimalField(_("cost"), max_digits=4, decimal_places=1)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["seat", "phase", "created_at", "id"]
        verbose_name = _("mutation")
        verbose_name_plural = _("mutations")
        constraints = [
            models.UniqueConstraint(
                fields=["source", "element"], name="mutation_element_cut_out_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.element} → {self.target_id}"


class CoveredBox(models.Model):
    """A box of a deck card under a mutation; unique, so nothing is ever glued over it again."""

    target = models.ForeignKey(DraftCard, on_delete=models.CASCADE, related_name="covered_boxes")
    box = models.CharField(max_length=20)  # "attack", "hp", "mana" or "ability:N"
    mutation = models.ForeignKey(Mutation, on_delete=models.CASCADE, related_name="boxes")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "box"], name="mutation_box_covered_once")
        ]

    def __str__(self) -> str:
        return f"{self.target_id}: {self.box}"


class CostRule(models.Model):
    """One line of the Mutation Points table. Rows without a session are the defaults each new
    session copies; a session's own rows are the table its organiser may edit."""

    class Key(models.TextChoices):
        BUDGET = "budget", _("Mutation Points per Mutation Phase")
        ATTACK_POINT = "attack_point", _("+1 attack value")
        HP_POINT = "hp_point", _("+1 HP value")
        MANA_POINT = "mana_point", _("−1 mana value")
        ABILITY = "ability", _("gaining a special ability")
        AURA_EXTRA = "aura_extra", _("extra for an Aura")
        COVER = "cover", _("extra for covering a special ability")

    session = models.ForeignKey(
        MutationSession,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="cost_rules",
    )
    key = models.CharField(_("what"), max_length=20, choices=Key.choices)
    ability_code = models.CharField(_("ability code"), max_length=40, blank=True)
    points = models.DecimalField(
        _("Mutation Points"),
        max_digits=4,
        decimal_places=1,
        validators=[MinValueValidator(0)],
    )

    class Meta:
        ordering = ["session", "key", "ability_code"]
        verbose_name = _("Mutation cost")
        verbose_name_plural = _("Mutation cost table")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "key", "ability_code"],
                condition=Q(session__isnull=False),
                name="mutation_cost_once_per_session",
            ),
            models.UniqueConstraint(
                fields=["key", "ability_code"],
                condition=Q(session__isnull=True),
                name="mutation_cost_default_once",
            ),
            models.CheckConstraint(condition=Q(points__gte=0), name="mutation_cost_not_negative"),
        ]

    def __str__(self) -> str:
        suffix = f" {self.ability_code}" if self.ability_code else ""
        return f"{self.get_key_display()}{suffix}: {self.points}"
