"""The app manifest sends everything to the one endpoint and asks for what the listeners need."""

from __future__ import annotations

from typing import Any

import yaml

from api.slack.listeners import COMMAND
from assistant.config import PROJECT_ROOT


def _manifest() -> dict[str, Any]:
    return yaml.safe_load((PROJECT_ROOT / "slack" / "manifest.yaml").read_text())


def test_every_request_url_is_the_events_endpoint() -> None:
    manifest = _manifest()
    settings = manifest["settings"]
    urls = [
        *(command["url"] for command in manifest["features"]["slash_commands"]),
        settings["event_subscriptions"]["request_url"],
        settings["interactivity"]["request_url"],
    ]
    assert len(urls) == 3 and all(
        url.startswith("https://") and url.endswith("/slack/events") for url in urls
    )
    assert len({url.removesuffix("/slack/events") for url in urls}) == 1, "one deployment for all three"
    assert settings["interactivity"]["is_enabled"] and not settings["socket_mode_enabled"]


def test_the_command_events_and_scopes_match_what_the_bot_listens_to() -> None:
    manifest = _manifest()
    assert [command["command"] for command in manifest["features"]["slash_commands"]] == [COMMAND]
    events = set(manifest["settings"]["event_subscriptions"]["bot_events"])
    assert {"app_mention", "message.channels", "message.groups", "message.im"} <= events
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {"app_mentions:read", "chat:write", "commands", "channels:history", "im:history"} <= scopes
    assert manifest["features"]["app_home"]["messages_tab_enabled"], "direct messages need the messages tab"
