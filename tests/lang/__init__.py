"""Tests of the game language: constructs, errors, run-time failures, the sandbox, bundled games."""
