"""The feature graph: every segment on the board, merged into features as tiles meet.

Segments get consecutive integer ids as tiles are placed; a union-find over those ids joins
segments that continue each other across tile edges. Each root carries its feature's data,
and merging folds the smaller feature into the larger, so a placement costs time in proportion
to the features it touches, never to the size of the board.

The graph also keeps what it was built from (each segment's own data, every join, the ends each
segment had closed), so that a join a part made (`link`) can be undone (`unlink`): the feature
is then computed again from its segments, split where nothing else joins them.
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

    __slots__ = ("features", "joins", "linked", "links", "manned", "parent", "seeds", "segment_tile", "shut")

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.features: list[Feature | None] = []
        self.segment_tile: list[int] = []  # placed-tile index of each segment
        # Roots that got a figure (`deploy`), some since emptied or merged: `figured` skips those.
        self.manned: set[int] = set()
        self.links = 0  # links made or undone (`link`, `unlink`): features change without a new segment
        # What the features are made of: each segment's own data (kind, open ends, pennants,
        # borders, marks), the ends of each it had closed, and every pair of segments joined.
        self.seeds: list[tuple[Kind, int, int, list[int], dict[str, int]]] = []
        self.shut: list[int] = []
        self.joins: list[tuple[int, int]] = []
        self.linked: dict[tuple[int, int], bool] = {}  # a part's links -> whether they closed ends

    def add_tile(self, tile: TileType, index: int) -> int:
        """Create one single-segment feature per segment of a tile; returns the first id."""
        base = len(self.parent)
        parent, features, seeds = self.parent, self.features, self.seeds
        for offset, (kind, edges, pennants, borders, marks) in enumerate(tile.seeds):
            sid = base + offset
            parent.append(sid)
            bordering = [base + b for b in borders] if borders else _NONE
            marked = marks or _NO_MARKS
            features.append(Feature(sid, kind, index, edges, pennants, bordering, marked))
            seeds.append((kind, edges, pennants, bordering, marked))
        self.segment_tile += [index] * len(tile.seeds)
        self.shut += [0] * len(tile.seeds)
        return base

    def add_segment(self, kind: Kind, index: int, open_edges: int) -> int:
        """One extra segment on placed tile `index`, laid by a part; returns its id."""
        sid = len(self.parent)
        self.parent.append(sid)
        self.segment_tile.append(index)
        self.features.append(Feature(sid, kind, index, open_edges, 0))
        self.seeds.append((kind, open_edges, 0, _NONE, _NO_MARKS))
        self.shut.append(0)
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
        self.joins.append((a, b))
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
        self.shut[a] += 1
        self.shut[b] += 1
        return feature

    def close(self, sid: int) -> None:
        """An open end of segment `sid` closes against something that is no segment."""
        self.feature(sid).open -= 1
        self.shut[sid] += 1

    def link(self, a: int, b: int, closes: bool = True) -> Feature:
        """Join two road or city segments elsewhere than across a tile edge, as a part links them:
        through an open end of each, which both close, or (`closes` False) through ends that were
        closed already (a road's dead ends). Two segments of one feature only close them."""
        self.links += 1
        self.linked[(a, b)] = closes
        return self.join_edge(a, b) if closes else self.union(a, b)

    def unlink(self, a: int, b: int) -> None:
        """Undo a part's `link` of `a` and `b`: the ends it closed open again, and the feature
        splits where nothing else joins its segments. Each figure stays on its segment, and the
        part of the feature holding the old root keeps it."""
        closes = self.linked.pop((a, b))
        self.links += 1
        self.joins.remove((a, b))
        if closes:
            self.shut[a] -= 1
            self.shut[b] -= 1
        root = self.find(a)
        old = self.features[root]
        assert old is not None
        members = [sid for sid in range(len(self.parent)) if self.find(sid) == root]
        inside = set(members)
        local = {sid: sid for sid in members}

        def top(sid: int) -> int:
            while local[sid] != sid:
                sid = local[sid]
            return sid

        for x, y in self.joins:
            if x in inside and y in inside:
                tx, ty = top(x), top(y)
                if tx != ty:
                    local[max(tx, ty)] = min(tx, ty)
        parts: dict[int, list[int]] = {}
        for sid in members:
            parts.setdefault(top(sid), []).append(sid)
        for group in parts.values():
            new_root = root if root in group else group[0]
            self.features[new_root] = feature = self._rebuilt(new_root, group, old)
            for sid in group:
                self.parent[sid] = new_root
                if sid != new_root:
                    self.features[sid] = None
            if feature.figures:
                self.manned.add(new_root)

    def _rebuilt(self, root: int, group: list[int], old: Feature) -> Feature:
        """The feature of these segments (of `old`), computed again from what they are made of."""
        seeds, shut, segment_tile = self.seeds, self.shut, self.segment_tile
        kind = seeds[root][0]
        feature = Feature(root, kind, segment_tile[root], 0, 0)
        for sid in group:
            _, edges, pennants, borders, marks = seeds[sid]
            feature.tiles.add(segment_tile[sid])
            feature.open += edges - shut[sid]
            feature.pennants += pennants
            if borders:
                feature.borders = feature.borders + borders
            if marks:
                merged = dict(feature.marks)
                for flag, n in marks.items():
                    merged[flag] = merged.get(flag, 0) + n
                feature.marks = merged
        inside = set(group)
        feature.figures = [figure for figure in old.figures if figure[1] in inside]
        return feature

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
