"""The sign-up form."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email (optional)"), required=False, help_text=_("Only to reset your password.")
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
