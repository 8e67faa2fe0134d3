"""The Nightmarium referee: pure logic (no pygame, no I/O) between the camera's TableStates and the engine.

- table_view: what the engine's position looks like as a TableState, and camera faces as engine Cards.
- diff: how an observed table differs from the engine's, creature by creature.
- referee: turns those differences into engine moves (observed mode), or a warning naming the broken rule.
- simulated: a synthetic table that plays a real game, for `companion run` without a camera and for tests.
"""
from .referee import Outcome, Referee, RuleWarning

__all__ = ["Outcome", "Referee", "RuleWarning"]
