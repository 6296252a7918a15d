"""What every game in the registry must offer, whatever its rules."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from referee.games import GAMES, find_game
from referee.games.base import (
    InvalidDeal,
    InvalidOptions,
    OptionError,
    Standing,
    Table,
    UnknownGame,
    option,
    option_specs_of,
)

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay")


def table_for(game, dealer_index=0):
    players = NAMES[: game.seats]
    return Table(players, players[dealer_index])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
class TestEveryGame:
    def test_is_found_by_its_key(self, game):
        assert find_game(game.key) is game

    def test_defaults_round_trip_through_json(self, game):
        assert game.parse_options({}) == game.defaults
        assert game.parse_options(None) == game.defaults
        assert game.parse_options(game.options_to_json(game.defaults)) == game.defaults

    def test_every_option_has_a_label_help_and_a_default_it_accepts(self, game):
        for spec in game.option_specs:
            assert spec.label and spec.help
            assert spec.parse(spec.to_json(spec.default)) == spec.default
            assert getattr(game.defaults, spec.name) == spec.default

    def test_its_options_are_a_frozen_dataclass_whose_fields_are_the_options(self, game):
        assert dataclasses.is_dataclass(game.Options) and game.Options.__dataclass_params__.frozen
        assert [s.name for s in game.option_specs] == [f.name for f in dataclasses.fields(game.Options)]
        assert [s.default for s in game.option_specs] == [f.default for f in dataclasses.fields(game.Options)]

    def test_unknown_option_is_refused(self, game):
        with pytest.raises(InvalidOptions) as caught:
            game.parse_options({"no_such_option": 1})
        assert [v.code for v in caught.value.violations] == ["unknown_option"]

    def test_a_deal_that_is_not_an_object_is_a_violation(self, game):
        for junk in (None, [], "deal", 3):
            assert [v.code for v in game.validate(junk, table_for(game), game.defaults)] == ["not_an_object"]
            with pytest.raises(InvalidDeal):
                game.score(junk, table_for(game), game.defaults)

    def test_an_empty_deal_lists_problems_and_is_not_mutated(self, game):
        deal: dict = {}
        problems = game.validate(deal, table_for(game), game.defaults)
        assert problems and all(v.code and v.message for v in problems)
        assert deal == {}

    def test_roles_name_the_dealer(self, game):
        for i in range(game.seats):
            table = table_for(game, i)
            roles = game.roles(table)
            assert roles["dealer"] == table.dealer
            assert set(roles.values()) <= set(table.players)

    def test_the_deal_passes_round_the_table(self, game):
        table = table_for(game)
        seen = [table.dealer]
        for _ in range(game.seats - 1):
            table = Table(table.players, game.next_dealer(table))
            seen.append(table.dealer)
        assert sorted(seen) == sorted(table.players)
        assert game.next_dealer(table) == seen[0]

    def test_a_new_match_is_not_finished(self, game):
        players = NAMES[: game.seats]
        standing = game.standing(players, {p: 0 for p in players}, [], game.defaults)
        assert isinstance(standing, Standing) and not standing.finished and standing.winner is None

    def test_options_are_not_shared_mutable_state(self, game):
        before = copy.deepcopy(game.options_to_json(game.defaults))
        game.parse_options({spec.name: spec.to_json(spec.default) for spec in game.option_specs})
        assert game.options_to_json(game.defaults) == before


def test_unknown_game():
    with pytest.raises(UnknownGame):
        find_game("poker")


def test_keys_are_unique():
    assert len({g.key for g in GAMES}) == len(GAMES)


def test_an_option_is_declared_once_on_its_field():
    @dataclasses.dataclass(frozen=True)
    class Options:
        rounds: int = option(3, "Rounds", "How many rounds.", number=True, minimum=1, maximum=9)
        pace: str = option("slow", "Pace", "How fast.", choices=(("slow", "Slow"), ("fast", "Fast")),
                           aliases=(("lazy", "slow"),))

    rounds, pace = option_specs_of(Options)
    assert Options() == Options(3, "slow")
    assert (rounds.name, rounds.label, rounds.default, rounds.minimum, rounds.maximum) == ("rounds", "Rounds", 3, 1, 9)
    assert rounds.parse("7") == 7 and pace.parse("Lazy") == "slow" and pace.describe("fast") == "Fast"
    with pytest.raises(OptionError):
        rounds.parse(10)


def test_a_field_not_declared_as_an_option_is_refused():
    @dataclasses.dataclass(frozen=True)
    class Options:
        rounds: int = 3

    with pytest.raises(TypeError, match=r"Options.rounds is not a rule option: declare it with option"):
        option_specs_of(Options)
