"""The one `medfig` command: every sub-command is found, and metrics live under `medfig evaluate`."""

from __future__ import annotations

import pytest

from medfig.cli import command_modules, main, make_parser


def test_every_command_module_registers_a_sub_command():
    parser = make_parser()
    choices = parser._subparsers._group_actions[0].choices  # the COMMAND sub-parsers
    assert len(choices) >= len(command_modules())  # a module registers at least its own command
    for name in ("build", "demo", "extract", "compound", "curate", "concepts", "export", "evaluate", "index",
                 "search", "serve"):
        assert name in choices, name


def test_evaluate_lists_the_papers_metrics(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    out = capsys.readouterr().out
    assert "subfigures" in out and "image-filter" in out


def test_evaluate_image_filter_names_a_missing_model(tmp_path, capsys):
    code = main(["evaluate", "image-filter", str(tmp_path / "no-model.json"), str(tmp_path)])
    assert code == 2
    assert "no-model.json" in capsys.readouterr().err
