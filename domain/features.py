"""The feature graph: every segment on the board, merged into features as tiles meet.

Segments get consecutive integer ids as tiles are placed; a union-find over those ids joins
segments that continue each other across tile edges. Each root carries its feature's data,
and merging folds the smaller feature into the larger, so a placement costs time in proportion
to the features it touches, never to the size of the board.
"""

from __future__ import annotations

from domain.tiles import Kind, TileType

Figure = tuple[int, int, str]  # (player, segment id, kind of figure)


_NONE: list[int] = []  # what a feature without borders shares: never changed in place
_NO_MARKS: dict[str, int] = {}  # likewise, a feature without marks


class Feature:
    """What a whole feature holds; lives on its union-find root only."""

    __slots__ = (
        "borders",
        "figures",
        "id",
        "kind",
        "marks",
        "open",
        "pennants",
        "tiles",
    )

    def __init__(
        self,
        fid: int,
        kind: Kind,
        tile: int,
        open_edges: int,
        pennants: int,
        borders: list[int] = _NONE,
        marks: dict[str, int] = _NO_MARKS,
    ) -> None:
        self.id = fid
        self.kind = kind
        self.tiles = {tile}  # placed-tile indices: a tile counts once per feature (R-BASE-5)
        self.open = open_edges  # cities and roads: edges not yet matched by a neighbour
        self.pennants = pennants
        self.figures: list[Figure] = []  # every figure on it: followers and the parts' own
        # Fields: segment ids of the cities they touch. Shared while empty: never changed in place.
        self.borders = borders
        self.marks = marks  # segment flags counted over the feature; shared while empty, as above

    def absorb(self, other: Feature) -> None:
        self.tiles |= other.tiles
        self.open += other.open
        self.pennants += other.pennants
        if other.figures:
            self.figures += other.figures
        if other.borders:
            self.borders = self.borders + other.borders
        if other.marks:
            marks = dict(self.marks)
            for flag, n in other.marks.items():
                marks[flag] = marks.get(flag, 0) + n
            self.marks = marks


class FeatureGraph:
    """Union-find over segment ids, with feature data on the roots."""

    __slots__ = ("features", "links", "manned", "parent", "segment_tile")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.features: list[Feature | None] = []
        self.segment_tile: list[int] = []  # placed-tile index of each segment
        # Roots that got a figure (`deploy`), some since emptied or merged: `figured` skips those.
        self.manned: set[int] = set()
        self.links = 0  # pairs of ends a part linked (`link`): features change without a new segment

    def add_tile(self, tile: TileType, index: int) -> int:
        """Create one single-segment feature per segment of a tile; returns the first id."""
        base = len(self.parent)
        parent, features = self.parent, self.features
        for offset, (kind, edges, pennants, borders, marks) in enumerate(tile.seeds):
            sid = base + offset
            parent.append(sid)
            features.append(
                Feature(
                    sid,
                    kind,
                    index,
                    edges,
                    pennants,
                    [base + b for b in borders] if borders else _NONE,
                    marks or _NO_MARKS,
                )
            )
        self.segment_tile += [index] * len(tile.seeds)
        return base

    def add_segment(self, kind: Kind, index: int, open_edges: int) -> int:
        """One extra segment on placed tile `index`, laid by a part; returns its id."""
        sid = len(self.parent)
        self.parent.append(sid)
        self.segment_tile.append(index)
        self.features.append(Feature(sid, kind, index, open_edges, 0))
        return sid

    def find(self, sid: int) -> int:
        parent = self.parent
        while parent[sid] != sid:
            parent[sid] = parent[parent[sid]]
            sid = parent[sid]
        return sid

    def feature(self, sid: int) -> Feature:
        feature = self.features[self.find(sid)]
        assert feature is not None
        return feature

    def union(self, a: int, b: int) -> Feature:
        ra, rb = self.find(a), self.find(b)
        fa, fb = self.features[ra], self.features[rb]
        assert fa is not None and fb is not None
        if ra == rb:
            return fa
        if len(fa.tiles) < len(fb.tiles):
            ra, rb, fa, fb = rb, ra, fb, fa
        self.parent[rb] = ra
        self.features[rb] = None
        if fb.figures:
            self.manned.add(ra)
        fa.absorb(fb)
        return fa

    def join_edge(self, a: int, b: int) -> Feature:
        """Join a road or city segment to its continuation across one shared edge."""
        feature = self.union(a, b)
        feature.open -= 2  # the shared edge was open on both sides
        return feature

    def link(self, a: int, b: int) -> Feature:
        """Join two road or city segments through an open end of each that a part links elsewhere
        than across a tile edge; both ends close. Two segments of one feature only close them."""
        self.links += 1
        return self.join_edge(a, b)

    def roots(self) -> list[Feature]:
        return [f for f in self.features if f is not None]

    def deployed(self, sid: int, figure: Figure) -> None:
        """A figure goes onto the feature of segment `sid`."""
        root = self.find(sid)
        feature = self.features[root]
        assert feature is not None
        feature.figures.append(figure)
        self.manned.add(root)

    def figured(self) -> list[Feature]:
        """The features holding a figure, without looking at the rest of the board."""
        features = self.features
        found = []
        for root in sorted(self.manned):
            feature = features[root]
            if feature is not None and feature.figures:
                found.append(feature)
        if len(found) < len(self.manned):
            self.manned = {f.id for f in found}
        return found
