"""The estimators with the defaults the saved prints of `benchmarks/results/` were made with, pinned.

The benchmarks that fit "the default" estimator import it from here, so that each saved command reproduces its print
whatever the package's defaults become (issue 28 weighs a cheaper default: `benchmarks/README.md`, its note 11; the
estimators' node solver became `solver='auto'`, the compiled `'cd'`, after these prints were made with liblinear).
Arguments given explicitly win over the pinned ones, as they would over the package's defaults.
"""
from tao_nb.estimators import TAOClassifier as _TAOClassifier, TAOPathClassifier as _TAOPathClassifier
from tao_nb.forest import TAOForestClassifier as _TAOForestClassifier
from tao_nb.linear_leaves import LinearLeafTAOClassifier as _LinearLeafTAOClassifier

SOLVER = dict(solver='liblinear')                               # the node solver the saved prints used
PATH_DEFAULTS = dict(inits=('cart', 'oblique'), max_iter=14,   # four starts, up to 14 TAO sweeps per value of C,
                     **SOLVER)


def TAOPathClassifier(**params):
    "`tao_nb.estimators.TAOPathClassifier(**params)`, with `PATH_DEFAULTS` where `params` does not set them."
    return _TAOPathClassifier(**{**PATH_DEFAULTS, **params})


def TAOClassifier(**params):
    "`tao_nb.estimators.TAOClassifier(**params)`, liblinear unless `params` names the solver."
    return _TAOClassifier(**{**SOLVER, **params})


def TAOForestClassifier(**params):
    "`tao_nb.forest.TAOForestClassifier(**params)`, liblinear unless `params` names the solver."
    return _TAOForestClassifier(**{**SOLVER, **params})


def LinearLeafTAOClassifier(**params):
    "`tao_nb.linear_leaves.LinearLeafTAOClassifier(**params)`, liblinear unless `params` names the solver."
    return _LinearLeafTAOClassifier(**{**SOLVER, **params})
