from django.test import Client


def test_lang_parameter_sets_the_api_language(client: Client) -> None:
    response = client.get("/api/v1/nowhere/?lang=fr")
    assert response["Content-Language"] == "fr"


def test_accept_language_sets_the_api_language(client: Client) -> None:
    response = client.get("/api/v1/nowhere/", HTTP_ACCEPT_LANGUAGE="sv-SE,sv;q=0.9")
    assert response["Content-Language"] == "sv"


def test_unknown_lang_is_a_json_400(client: Client) -> None:
    response = client.get("/api/v1/nowhere/?lang=de")
    assert response.status_code == 400
    assert response.json() == {
        "code": "unknown_language",
        "message": "Unknown language 'de': use one of en, fr, sv.",
        "details": {},
    }
