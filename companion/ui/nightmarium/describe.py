"""Words for the engine's prompts, moves and events, in the players' language and their edition's names."""
from __future__ import annotations

from companion.ui.i18n import t


def _value(item):
    return None if item is None else getattr(item, "value", item)


def legion_name(legion, lang: str) -> str:
    return t(f"nm.legion.{_value(legion)}", lang)


def ability_name(ability, lang: str) -> str:
    return t(f"nm.ability.{_value(ability) or 'none'}", lang)


def part_name(part, lang: str) -> str:
    return t(f"nm.part.{_value(part)}", lang)


def card_text(card, lang: str) -> str:
    if card is None:
        return "?"
    if getattr(card, "is_seal", False):
        return f"{legion_name(card.legion, lang)} {t('nm.seal', lang)}"
    parts = "/".join(part_name(part, lang) for part in card.parts)
    ability = f", {ability_name(card.ability, lang)}" if card.ability else ""
    return f"{legion_name(card.legion, lang)} {parts}{ability}"


def prompt_text(game, lang: str) -> str:
    prompt = game.prompt
    if prompt is None:
        return ""
    name = game.players[prompt.player].name
    if t(f"nm.prompt.{prompt.kind}", lang) == f"nm.prompt.{prompt.kind}":
        return prompt.message  # a question without a translation yet: the engine's English sentence
    legion = prompt.legion
    if legion is None and prompt.kind == "seal_replay":
        creature = game.creature(prompt.creature_id)
        legion = creature.seal.legion if creature is not None and creature.seal is not None else None
    return t(f"nm.prompt.{prompt.kind}", lang, name=name, ability=ability_name(prompt.ability, lang),
             legion=legion_name(legion, lang), count=prompt.count, id=prompt.creature_id)


def expectation_text(game, lang: str) -> str:
    prompt = game.prompt
    if prompt is None:
        return t("nm.expect.action", lang)
    key = f"nm.expect.{prompt.kind}"
    if t(key, lang) == key:
        return t("nm.expect.seal_replay", lang)  # "nothing yet: answer on the screen"
    return t(key, lang, name=game.players[prompt.player].name)


def move_text(move, game, lang: str) -> str:
    """A move as a button label or a log line."""
    kind = getattr(move, "kind", "")
    names = [player.name for player in game.players]
    if kind == "target":
        creature = game.creature(move.creature_id)
        owner = names[creature.owner] if creature is not None else "?"
        return t("nm.target", lang, name=owner, id=move.creature_id)
    if kind == "order":
        return t("nm.order.first", lang, id=move.creature_id)
    if kind in ("place", "play"):
        if move.creature_id is None:
            return f"{card_text(move.card, lang)} → {t('nm.picker.new_creature', lang)}"
        return f"{card_text(move.card, lang)} → " + t("nm.picker.on_creature", lang, id=move.creature_id,
                                                        part=part_name(move.part, lang))
    if kind in ("place_seal", "play_seal"):
        return t("nm.picker.seal_on", lang, id=move.creature_id)
    if kind == "discard_revealed":
        return f"{card_text(move.card, lang)}: {t('nm.picker.discard', lang)}"
    if kind == "replay":
        return t("nm.replay.yes" if move.accept else "nm.replay.no", lang)
    if kind == "cannot_perform":
        return t("nm.cannot_perform", lang)
    if kind == "draw":
        return t("nm.draw", lang)
    if kind == "discard_draw":
        return f"{t('nm.discard_draw', lang)} ({len(move.cards)})"
    return kind


def event_text(event: dict, names: list[str], lang: str) -> str:
    """One line of the game log."""
    kind = event.get("type", "")
    who = names[event["player"]] if isinstance(event.get("player"), int) and event["player"] < len(names) else ""
    if kind == "turn_start":
        return t("nm.turn", lang, turn=event.get("turn", "?"), name=who)
    if kind == "pure_legion":
        return t("nm.event.pure_legion", lang, legion=legion_name(event.get("legion"), lang))
    if kind == "completion":
        return t("nm.event.completion", lang, name=who, id=event.get("creature"))
    if kind == "ability":
        return f"{who}: {ability_name(event.get('ability'), lang)} ({part_name(event.get('part'), lang)})"
    if kind == "ability_failed":
        return t("nm.event.ability_failed", lang, ability=ability_name(event.get("ability"), lang),
                 why=t(f"nm.cannot.{event.get('ability')}", lang))
    if kind == "chain_interrupted":
        names = ", ".join(ability_name(ability, lang) for _, ability in event.get("lost", ()))
        return t("nm.event.chain_interrupted", lang, id=event.get("creature"),
                 lost=t("nm.event.lost", lang, names=names) if names else "")
    if kind == "win":
        return t("nm.event.win", lang, name=who)
    if kind in ("play", "place"):
        from companion.games.nightmarium import card_from_json

        card = card_from_json(event.get("card"))
        return f"{who}: {card_text(card, lang)} → {event.get('creature')} ({part_name(event.get('part'), lang)})"
    if kind == "draw":
        return f"{who}: {t('nm.draw', lang)} ×{event.get('count', 1)}"
    if kind == "discard_draw":
        return f"{who}: {t('nm.discard_draw', lang)} ({len(event.get('discarded', []))} → {event.get('drew', 0)})"
    victim = names[event["victim"]] if isinstance(event.get("victim"), int) and event["victim"] < len(names) else ""
    if kind in ("scavenge", "devour", "take", "seal"):
        return t(f"nm.log.{kind}", lang, name=who, victim=victim, id=event.get("creature"))
    if kind == "penalty_discard":
        return t("nm.log.penalty_discard", lang, name=who, count=len(event.get("cards", ())),
                 legion=legion_name(event.get("legion"), lang))
    if kind in ("reveal", "herald_discard"):
        from companion.games.nightmarium import card_from_json

        cards = [card_from_json(card) for card in event.get("cards", [event.get("card")]) if card is not None]
        text = ", ".join(card_text(card, lang) for card in cards)
        return t(f"nm.log.{kind}", lang, name=who, cards=text, card=text)
    if kind == "reshuffle":
        return t("nm.log.reshuffle", lang)
    details = ", ".join(f"{key}={value}" for key, value in event.items()
                        if key not in ("type", "player") and not isinstance(value, (list, dict)))
    return f"{who}: {kind} {details}".strip(": ")
