"""The legion by badge shape and colours on small cards (stop 84; issue 3: legion at least 99.9% at the wiring
guide's card size, about 145 px). `python -m vision.crossval --head shape --read-widths 140 170` reads crops of cards
that long with heads learned from every training size, and weighs a rule where the shape overrules the colours'
legion only from a bar (`overrules_from`). Cross-validated, that rule cut the wrong legions in the scans' own colours
but let through many more through a camera whose hues are turned, so the pipeline does not use it."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.crossval import SHAPE_RULES
from vision.model import SHAPE_RULES_OUT, legion_from_shape_and_colour

probability_rows = st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4).map(lambda v: np.array(v) / sum(v))
BAR = 0.9


@settings(max_examples=300, deadline=None)
@given(probability_rows, probability_rows)
def test_overruling_only_from_a_bar_takes_the_shapes_say_away_only_where_it_would_overrule_the_colours(shape, colour):
    """Where the shape and colours together read the colours' legion, the rule reads as the pipeline does, as
    surely; otherwise it reads the colours' legion unless the shape is sure enough or rules that legion out."""
    usual = legion_from_shape_and_colour(shape, colour)
    barred = legion_from_shape_and_colour(shape, colour, overrules_from=BAR)
    if int(usual.argmax()) == int(colour.argmax()):
        assert np.array_equal(barred, usual)
    elif shape.max() >= BAR or shape[colour.argmax()] <= SHAPE_RULES_OUT:
        assert np.array_equal(barred, usual)
    else:
        assert np.array_equal(barred, colour)


def test_below_the_bar_only_a_shape_that_rules_the_colours_legion_out_overrules_them():
    torn = np.array([0.45, 0.51, 0.02, 0.02])  # blue, red, brown, green: no room for brown
    colour = np.array([0.01, 0.02, 0.95, 0.02])
    assert int(legion_from_shape_and_colour(torn, colour, overrules_from=BAR).argmax()) == 1
    between = np.array([0.8, 0.02, 0.06, 0.12])  # blue at 0.8: sure enough to have its say, not to overrule
    assert int(legion_from_shape_and_colour(between, colour).argmax()) == 0
    assert int(legion_from_shape_and_colour(between, colour, overrules_from=BAR).argmax()) == 2
    sure = np.array([0.92, 0.01, 0.06, 0.01])  # over the bar, brown not ruled out: it overrules the colours
    assert int(legion_from_shape_and_colour(sure, colour, overrules_from=BAR).argmax()) == 0


@settings(max_examples=200, deadline=None)
@given(probability_rows, probability_rows)
def test_the_crossvals_overruling_rule_reads_the_legions_that_being_sure_from_its_bar_reads(shape, colour):
    """The crossval's "overruling the colours only from 0.9" reads the same legion as "shape sure from 0.9", while
    keeping the shape's sureness where it agrees with the colours (what the confidence is made of)."""
    barred = legion_from_shape_and_colour(shape, colour, *SHAPE_RULES["overruling the colours only from 0.9"])
    assert np.array_equal(barred, legion_from_shape_and_colour(shape, colour, overrules_from=BAR))
    assert int(barred.argmax()) == int(legion_from_shape_and_colour(shape, colour,
                                                                    *SHAPE_RULES["shape sure from 0.9"]).argmax())


def test_the_crossval_can_read_crops_of_one_size_band_while_training_draws_every_size():
    """`--read-widths 140 170` draws its crops' scenes with the cards that long; training draws 120-330 px."""
    import vision.train as train

    class Drawn:
        """Stands in for the scene generator, keeping the card length each scene is drawn at."""
        def __init__(self):
            self.lengths = []

        def render(self, layout, conditions, deck=False):
            self.lengths.append(conditions.card_width_px)

    def lengths(**widths):
        drawn, rng = Drawn(), np.random.default_rng(4)
        for _ in range(200):
            train._column_scene(drawn, rng, [1, 2, 3], **widths)
        return drawn.lengths

    banded, usual = lengths(widths=(140.0, 170.0)), lengths()
    assert all(140.0 <= length <= 170.0 for length in banded) and max(banded) - min(banded) > 25, banded
    assert train.TRAINING_WIDTHS == (120.0, 330.0)
    assert all(120.0 <= length <= 330.0 for length in usual) and max(usual) - min(usual) > 180, usual
