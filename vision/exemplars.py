"""Nearest-prototype reading of the body parts and the ability: the gradient histograms of each card's white print
(the badge's figure, the ability icon) compared with class prototypes learned from many rendered training crops
(different cards, light, tilt, size).

With only 64 training cards, a linear classifier learns the cards rather than the figure; voting among the most
similar prototypes generalises to unseen cards better. The pipeline adds the vote shares to the linear classifier's
probabilities. Each block is projected on its leading principal directions; per class, k-means then condenses the
crops into at most 64 prototypes, each the mean of at least 8 crops, so the stored table holds what a class looks
like, never one crop's histogram. Stored as `<model>.npz` next to the model's JSON: numbers only (about 0.4 MB).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

NEIGHBOURS = 5
DIMENSIONS = 128
MAX_EXEMPLARS = 6000
PROTOTYPES_PER_CLASS = 64
MIN_MEMBERS = 8  # every stored prototype is the mean of at least this many crops, never one crop's histogram


@dataclass
class ExemplarHead:
    columns: slice  # which card_features entries this head compares
    mean: np.ndarray
    projection: np.ndarray  # features x DIMENSIONS
    exemplars: np.ndarray  # rows x DIMENSIONS, unit length
    labels: np.ndarray

    @classmethod
    def fit(cls, columns: slice, features: np.ndarray, labels: np.ndarray) -> "ExemplarHead":
        block = features[:, columns].astype(np.float64)
        mean = block.mean(axis=0)
        _, _, directions = np.linalg.svd((block - mean)[::2], full_matrices=False)
        projection = directions[:DIMENSIONS].T.astype(np.float32)
        head = cls(columns, mean.astype(np.float32), projection, np.zeros((0, projection.shape[1]), np.float32),
                   labels.astype(np.int16))
        head.exemplars, head.labels = prototypes(head.embed(features), labels)
        return head

    def add_class(self, features: np.ndarray, label: int, seed: int) -> None:
        """Prototypes of one more class from its crops, in the space already learned from the others (the new
        class does not move their projection)."""
        rows = table_rows(len(features), seed)
        centres, labels = prototypes(self.embed(features[rows]), np.full(len(rows), label), seed)
        self.exemplars = np.concatenate([self.exemplars, centres]).astype(np.float32)
        self.labels = np.concatenate([self.labels, labels]).astype(np.int16)

    def embed(self, features: np.ndarray) -> np.ndarray:
        projected = (features[:, self.columns] - self.mean) @ self.projection
        return projected / (np.linalg.norm(projected, axis=1, keepdims=True) + 1e-6)

    def vote(self, features: np.ndarray, classes: int) -> np.ndarray:
        """Per row and class: the share of the nearest prototypes that carry that label (all zero when a model
        taught from a few pictures has none)."""
        return self.shares(self.similarity(features), classes)

    def familiarity(self, features: np.ndarray) -> np.ndarray:
        """Per row: the cosine similarity of its nearest prototype, whatever its label (1 when there are none).
        A print like no training crop of any class (the icon under a finger) scores low."""
        return self.nearest(self.similarity(features))

    def similarity(self, features: np.ndarray) -> np.ndarray:
        """Rows x prototypes: cosine similarity in the projected space."""
        return self.embed(features) @ self.exemplars.T

    def shares(self, similarity: np.ndarray, classes: int) -> np.ndarray:
        """`vote` from the rows' similarities to the prototypes."""
        neighbours = min(NEIGHBOURS, len(self.exemplars))
        if neighbours == 0:
            return np.zeros((len(similarity), classes))
        nearest = np.argpartition(-similarity, neighbours - 1, axis=1)[:, :neighbours]
        return np.stack([np.bincount(row, minlength=classes)[:classes] for row in self.labels[nearest]]) / neighbours

    @staticmethod
    def nearest(similarity: np.ndarray) -> np.ndarray:
        """`familiarity` from the rows' similarities to the prototypes."""
        return similarity.max(axis=1) if similarity.shape[1] else np.ones(len(similarity))


@dataclass
class Exemplars:
    heads: dict[str, ExemplarHead]

    def vote(self, features: np.ndarray, classes: dict[str, int]) -> dict[str, np.ndarray]:
        """Per head (with its number of classes): rows x classes vote shares."""
        return self.read(features, classes)[0]

    def read(self, features: np.ndarray,
             classes: dict[str, int]) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """Per head: the vote shares (as `vote`) and each row's familiarity (as `ExemplarHead.familiarity`), from
        one comparison with the prototypes."""
        features = np.atleast_2d(features).astype(np.float32)
        votes, familiarity = {}, {}
        for name, head in self.heads.items():
            similarity = head.similarity(features)
            votes[name] = head.shares(similarity, classes[name])
            familiarity[name] = head.nearest(similarity)
        return votes, familiarity

    def save(self, path: Path) -> None:
        arrays = {}
        for name, head in self.heads.items():
            arrays[f"{name}.columns"] = np.array([head.columns.start, head.columns.stop])
            arrays[f"{name}.mean"] = head.mean
            arrays[f"{name}.projection"] = head.projection.astype(np.float16)
            arrays[f"{name}.exemplars"] = head.exemplars.astype(np.float16)
            arrays[f"{name}.labels"] = head.labels
        temporary = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(temporary, **arrays)
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> "Exemplars":
        """Raises ValueError (or OSError) when the file is damaged."""
        with np.load(path) as data:
            names = sorted({key.split(".")[0] for key in data.files})
            heads = {}
            for name in names:
                start, stop = (int(v) for v in data[f"{name}.columns"])
                heads[name] = ExemplarHead(slice(start, stop), data[f"{name}.mean"].astype(np.float32),
                                           data[f"{name}.projection"].astype(np.float32),
                                           data[f"{name}.exemplars"].astype(np.float32),
                                           data[f"{name}.labels"].astype(np.int16))
        for head in heads.values():
            if head.projection.shape[0] != head.columns.stop - head.columns.start or \
                    head.exemplars.shape[1] != head.projection.shape[1] or len(head.labels) != len(head.exemplars):
                raise ValueError("exemplar arrays of mismatched shapes")
        return cls(heads)


def prototypes(embedded: np.ndarray, labels: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per label, k-means centres of its unit-length embeddings (renormalised), each the mean of at least
    MIN_MEMBERS crops: the table keeps the shapes a class takes, not the crops it was learned from."""
    import cv2

    cv2.setRNGSeed(seed)
    centres, centre_labels = [], []
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-4)
    for label in np.unique(labels):
        members = embedded[labels == label].astype(np.float32)
        count = min(PROTOTYPES_PER_CLASS, len(members) // MIN_MEMBERS)
        if count < 1:
            continue  # too few crops to stand for their class without standing for single crops
        _, assignment, means = cv2.kmeans(members, count, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
        sizes = np.bincount(assignment.ravel(), minlength=count)
        for index in np.flatnonzero(sizes >= MIN_MEMBERS):
            centres.append(means[index] / (np.linalg.norm(means[index]) + 1e-6))
            centre_labels.append(label)
    return np.array(centres, np.float32).reshape(-1, embedded.shape[1]), np.array(centre_labels, np.int16)


def table_rows(count: int, seed: int) -> np.ndarray:
    """Which of `count` crops a prototype table is drawn from (at most MAX_EXEMPLARS), in their order."""
    return np.sort(np.random.default_rng(seed).permutation(count)[:MAX_EXEMPLARS])


def fit_exemplars(features: np.ndarray, part_sets: np.ndarray, abilities: np.ndarray, seed: int) -> Exemplars:
    """From positive training crops: their features, index of their printed part combination, ability index."""
    from .features import ICON_HOG, SILHOUETTE_HOG

    keep = table_rows(len(features), seed)
    features = features[keep]
    return Exemplars({"parts": ExemplarHead.fit(SILHOUETTE_HOG, features, part_sets[keep]),
                      "ability": ExemplarHead.fit(ICON_HOG, features, abilities[keep])})
