"""Where things are printed on a card, in scan pixels (1020x655, landscape, art upright)."""
from __future__ import annotations

# The legion badge (with the part silhouette) and the ability icon below it, with a margin for corner error.
EMBLEM_BOX = (822, 8, 1000, 290)
BADGE_BOX = (840, 15, 985, 170)
# The ability icon alone, below the badge.
ICON_BOX = (855, 172, 995, 305)
# The legion-tinted right edge.
STRIPE_BOX = (975, 40, 1020, 615)
