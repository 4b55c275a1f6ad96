"""What every start computes from the index, kept on disk beside it: fitted classifiers and embedded texts.

Fitting the sentence classifiers (`answered.py`) took about ten seconds of every start of every server worker,
embedding the quotable parts of long sentences (`spans.py`) four more and fitting the intent models two more, for
the same index each time. joblib's `Memory` keeps each result under a hash of its inputs (the bank's questions,
labels and vectors; the texts and the model that embeds them; or the index's name, for what is computed from the
index alone). Its folder is named by a hash of this package's code and of the versions of the libraries
that compute the results, so changed code never reads a result of other code; the folders of other code are
removed at start. A folder that cannot be written computes everything afresh, as before, and so does a service
whose index is on a Chroma server, unless `ASSISTANT_FITTED_DIR` names a folder.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import TypeVar

import numpy as np
from joblib import Memory
from langchain_core.embeddings import Embeddings

from assistant.config import Settings
from assistant.embeddings import embed_queries, model_id, unit_vectors

_PACKAGE = Path(__file__).resolve().parent
_LIBRARIES = ("numpy", "scipy", "scikit-learn", "joblib")

Result = TypeVar("Result")


class StartCache:
    """Results of the start, by their inputs, in `<fitted folder>/<code version>` (`Settings.fitted_folder`)."""

    def __init__(self, settings: Settings) -> None:
        self._model = model_id(settings)
        self._memory = Memory(_location(settings.fitted_folder), verbose=0)

    def computed(self, function: Callable[..., Result], *arguments: object) -> Result:
        """`function(*arguments)`, read from disk when it was computed before with equal arguments."""
        return self._memory.cache(function)(*arguments)

    def of_index(self, index: str, name: str, function: Callable[[], Result]) -> Result:
        """`function()`, named `name`, whose result depends on nothing but the index and this code: `index` is the
        index's collection, named by a hash of every document it holds and of the model that embedded them."""
        return self._memory.cache(_of_index, ignore=["function"])(index, name, function)

    def passages(self, embeddings: Embeddings, texts: list[str]) -> np.ndarray:
        """The unit passage vectors of `texts`."""
        return self._memory.cache(_passages, ignore=["embeddings"])(embeddings, self._model, texts)

    def queries(self, embeddings: Embeddings, texts: list[str]) -> np.ndarray:
        """The unit query vectors of `texts`."""
        return self._memory.cache(_queries, ignore=["embeddings"])(embeddings, self._model, texts)


def _location(folder: Path | None) -> Path | None:
    """This code's folder in `folder`, made if need be, the folders of other code removed; None where there is
    no folder or it cannot be written (then everything is computed)."""
    if folder is None:
        return None
    location = folder / code_version()
    try:
        location.mkdir(parents=True, exist_ok=True)
        for other in folder.iterdir():  # results of other code: never read again
            if other != location:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:
        return None
    return location


@cache
def code_version() -> str:
    """A hash of the package's source and of the versions of the libraries that fit and embed."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    for library in _LIBRARIES:
        digest.update(f"{library}=={version(library)}".encode())
    return digest.hexdigest()[:16]


def _of_index(index: str, name: str, function: Callable[[], Result]) -> Result:
    """`index` and `name` are the key; `function`, which is not hashed, computes."""
    return function()


def _passages(embeddings: Embeddings, model: str, texts: list[str]) -> np.ndarray:
    """`model` names the embeddings, whose object is not hashed."""
    return unit_vectors(np.asarray(embeddings.embed_documents(texts)))


def _queries(embeddings: Embeddings, model: str, texts: list[str]) -> np.ndarray:
    return unit_vectors(np.asarray(embed_queries(embeddings, texts)))
