"""`TAOPathClassifier` with the defaults the saved prints of `benchmarks/results/` were made with, pinned.

The benchmarks that fit "the default" estimator import it from here, so that each saved command reproduces its print
whatever the package's defaults become (issue 28 weighs a cheaper default: `benchmarks/README.md`, its note 11).
Arguments given explicitly win over the pinned ones, as they would over the package's defaults.
"""
from tao_nb.estimators import TAOPathClassifier as _TAOPathClassifier

PATH_DEFAULTS = dict(inits=('cart', 'oblique'), max_iter=14,   # four starts, up to 14 TAO sweeps per value of C,
                     solver='liblinear')                        # the node solver (09's 'cd' is the candidate)


def TAOPathClassifier(**params):
    "`tao_nb.estimators.TAOPathClassifier(**params)`, with `PATH_DEFAULTS` where `params` does not set them."
    return _TAOPathClassifier(**{**PATH_DEFAULTS, **params})
