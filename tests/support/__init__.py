"""Test support code: the independent held-out photo renderer (``holdout_render``) and its parts."""
