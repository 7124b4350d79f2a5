"""The estimators with the defaults the saved prints of `benchmarks/results/` were made with, pinned.

The benchmarks that fit "the default" estimator import it from here, so that each saved command reproduces its print
whatever the package's defaults become (issue 28 weighs a cheaper default: `benchmarks/README.md`, its note 11; the
estimators' node solver became `solver='auto'`, the compiled `'cd'`, after these prints were made with liblinear;
then `stop_on='loss'` and `refit=True`).
Arguments given explicitly win over the pinned ones, as they would over the package's defaults.
"""
from tao_nb.estimators import TAOClassifier as _TAOClassifier, TAOPathClassifier as _TAOPathClassifier
from tao_nb.forest import TAOForestClassifier as _TAOForestClassifier
from tao_nb.linear_leaves import LinearLeafTAOClassifier as _LinearLeafTAOClassifier

SOLVER = dict(solver='liblinear')                               # the node solver the saved prints used
PATH_DEFAULTS = dict(inits=('cart', 'oblique'), max_iter=14,   # four starts, up to 14 TAO sweeps per value of C,
                     stop_on='objective', refit=False,         # run to the objective's tol; the path's tree kept
                     **SOLVER)


def _pinned(cls, pinned):
    "A function making `cls(**params)` with `pinned` where `params` does not set them."
    def make(**params): return cls(**{**pinned, **params})
    make.__name__ = make.__qualname__ = cls.__name__
    make.__doc__ = f"`{cls.__module__}.{cls.__name__}(**params)`, with {pinned} where `params` does not set them."
    return make


TAOPathClassifier = _pinned(_TAOPathClassifier, PATH_DEFAULTS)
TAOClassifier = _pinned(_TAOClassifier, SOLVER)
TAOForestClassifier = _pinned(_TAOForestClassifier, SOLVER)
LinearLeafTAOClassifier = _pinned(_LinearLeafTAOClassifier, SOLVER)
