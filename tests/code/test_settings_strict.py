"""params.yaml loads strictly: a key nothing reads (a typo) raises instead of silently
falling back to the default. Each case edits a copy of the shipped params.yaml."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from deid.training.settings import PROFILES, load_settings

ROOT = Path(__file__).resolve().parents[2]
SECRET = "Erika Mustermann 4711"  # stands for a sensitive value: must never be in a message


def _params() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "params.yaml").read_text(encoding="utf-8"))


def _write(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    params = _params()
    edit(params)
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params, allow_unicode=True), encoding="utf-8")
    return path


def _rename(params: dict[str, Any], where: str, old: str, new: str) -> None:
    """Rename key ``old`` in the section at dotted path ``where`` and give it SECRET."""
    node = params
    for part in filter(None, where.split(".")):
        node = node[part]
    assert old in node, f"the shipped params.yaml has no {where}.{old}"
    del node[old]
    node[new] = SECRET


def test_shipped_params_load_for_every_profile() -> None:
    params = _params()
    for profile in (None, *PROFILES):
        settings = load_settings(ROOT / "params.yaml", profile)
        assert settings.validation_seed == params["dataset"]["validation_seed"]
    # the keys allowed beyond the dataclasses reach the settings
    tiny = params["train"]["profiles"]["tiny"]["max_documents"]
    assert load_settings(ROOT / "params.yaml", "tiny").max_documents == tiny
    assert load_settings(ROOT / "params.yaml").profile == params["model"]["profile"]


@pytest.mark.parametrize(
    ("where", "old", "new", "message"),
    [
        # the issue: a typo in a section's key
        ("anonymize", "operator", "operater", "unknown key 'anonymize.operater' (did you mean 'operator'?)"),
        ("dataset", "validation_seed", "validation_sed", "unknown key 'dataset.validation_sed' (did you mean 'validation_seed'?)"),
        ("train", "o_weight", "o_weigth", "unknown key 'train.o_weigth' (did you mean 'o_weight'?)"),
        ("tokenizer", "vocab_size", "vocabsize", "unknown key 'tokenizer.vocabsize' (did you mean 'vocab_size'?)"),
        ("pretrain", "mlm_probability", "mlm_probabilty", "unknown key 'pretrain.mlm_probabilty' (did you mean 'mlm_probability'?)"),
        ("model", "profile", "profil", "unknown key 'model.profil' (did you mean 'profile'?)"),
        # a section's name
        ("", "anonymize", "anonymise", "unknown key 'anonymise' (did you mean 'anonymize'?)"),
        # profiles: their names and their keys, also of a profile not in use (small is)
        ("model.profiles", "small", "smal", "unknown key 'model.profiles.smal' (did you mean 'small'?)"),
        ("model.profiles.base", "base_layers", "base_layer", "unknown key 'model.profiles.base.base_layer' (did you mean 'base_layers'?)"),
        ("train.profiles.tiny", "max_documents", "max_document", "unknown key 'train.profiles.tiny.max_document' (did you mean 'max_documents'?)"),
        ("train.profiles.base", "learning_rate", "learnig_rate", "unknown key 'train.profiles.base.learnig_rate' (did you mean 'learning_rate'?)"),
    ],
)  # fmt: skip
def test_a_typo_raises_with_a_suggestion_and_no_value(
    tmp_path: Path, where: str, old: str, new: str, message: str
) -> None:
    path = _write(tmp_path, lambda p: _rename(p, where, old, new))
    with pytest.raises(ValueError, match=re.escape(f"params.yaml: {message}")) as caught:
        load_settings(path, "small")
    assert SECRET not in str(caught.value) and "4711" not in str(caught.value)


def test_every_unknown_key_is_named_even_without_a_close_match(tmp_path: Path) -> None:
    def edit(params: dict[str, Any]) -> None:
        params["anonymize"]["zzz"] = SECRET
        params["anonymize"]["treshold"] = SECRET

    with pytest.raises(ValueError) as caught:
        load_settings(_write(tmp_path, edit))
    assert str(caught.value) == (  # the example: threshold is the model step's now
        "params.yaml: unknown key 'anonymize.treshold' (did you mean 'threshold'? it is set by "
        "anonymize.chain's model step ({model: {threshold: …}})); unknown key 'anonymize.zzz'"
    )


def test_a_model_setting_typo_in_the_chain_raises_with_a_suggestion(tmp_path: Path) -> None:
    path = _write(tmp_path, lambda p: _rename(_chain_entry(p, "model"), "model", "threshold", "treshold"))
    with pytest.raises(ValueError, match=re.escape(
        "params.yaml: unknown key 'anonymize.chain.model.treshold' (did you mean 'threshold'?)"
    )) as caught:  # fmt: skip
        load_settings(path)
    assert SECRET not in str(caught.value)
    moved = _write(tmp_path, lambda p: p["anonymize"].update(threshold=0.5))
    with pytest.raises(ValueError, match=re.escape("key 'anonymize.threshold' is set by anonymize.chain's model step")):
        load_settings(moved)


@pytest.mark.parametrize("section", ["dataset", "anonymize"])
def test_max_length_comes_from_the_model_profile_only(tmp_path: Path, section: str) -> None:
    path = _write(tmp_path, lambda p: p[section].update(max_length=4711))
    with pytest.raises(ValueError, match=rf"'{section}\.max_length' is set by model\.profiles"):
        load_settings(path)


def _chain_entry(params: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in params["anonymize"]["chain"] if isinstance(e, dict) and name in e)


def test_a_recognizer_typo_fails_at_load_not_after_training(tmp_path: Path) -> None:
    def edit(params: dict[str, Any]) -> None:
        _chain_entry(params, "recognizers")["recognizers"]["recognizers"]["deid.recognizers.date_of_brith.v1"] = {}

    with pytest.raises(ValueError, match="date_of_brith") as caught:
        load_settings(_write(tmp_path, edit))
    assert "anonymize.chain" in "".join(getattr(caught.value, "__notes__", []))


def test_a_chain_component_typo_raises_with_a_suggestion(tmp_path: Path) -> None:
    def edit(params: dict[str, Any]) -> None:
        chain = params["anonymize"]["chain"]
        chain[chain.index("keep_zones")] = "keep_zone"

    with pytest.raises(ValueError, match=re.escape(
        "params.yaml: unknown key 'anonymize.chain.keep_zone' (did you mean 'keep_zones'?)"
    )):  # fmt: skip
        load_settings(_write(tmp_path, edit))


def test_a_chain_config_typo_raises_with_a_suggestion_and_no_value(tmp_path: Path) -> None:
    def edit(params: dict[str, Any]) -> None:
        _chain_entry(params, "keep_labels")["keep_labels"]["lables"] = SECRET

    with pytest.raises(ValueError, match=re.escape(
        "params.yaml: unknown key 'anonymize.chain.keep_labels.lables' (did you mean 'labels'?)"
    )) as caught:  # fmt: skip
        load_settings(_write(tmp_path, edit))
    assert SECRET not in str(caught.value)


def test_the_legacy_flags_are_no_params_keys(tmp_path: Path) -> None:
    """params.yaml lists the chain; the flags of before it (policy, use_keep_zones …) are
    read only from an old pipeline.json."""
    path = _write(tmp_path, lambda p: p["anonymize"].update(policy={"keep_courts": True}))
    with pytest.raises(ValueError, match=re.escape("unknown key 'anonymize.policy'")):
        load_settings(path)


def test_ablation_is_editing_the_list(tmp_path: Path) -> None:
    def edit(params: dict[str, Any]) -> None:
        params["anonymize"]["chain"].remove("lowercase")

    shipped = [s.name for s in load_settings(ROOT / "params.yaml").pipeline.chain]
    edited = [s.name for s in load_settings(_write(tmp_path, edit)).pipeline.chain]
    assert edited == [n for n in shipped if n != "lowercase"]


def _read_gate(path: Path) -> object:
    from deid.ops.gate import load_gate_config

    return load_gate_config(path)


def _read_reviews(path: Path) -> object:
    from deid.sources.reviews.dataset import load_review_settings

    return load_review_settings(path)


def _read_checks(path: Path) -> object:
    from deid.ops.checks.config import load_check_params

    return load_check_params(path)


def _read_stage(name: str, keys: tuple[str, ...]) -> Callable[[Path], object]:
    def read(path: Path) -> object:
        from pipelines import read_params

        return read_params(path, name, keys)

    return read


@pytest.mark.parametrize(
    ("where", "old", "new", "read"),
    [
        # the sections other readers than load_settings check, each against its own keys
        ("gate", "gold_sets", "gold_set", _read_gate),
        ("reviews", "evaluation_share", "evaluation_shares", _read_reviews),
        ("validate", "min_precision", "min_precison", _read_checks),
        ("encoder", "prune_vocabulary", "prune_vocabulry", _read_stage("encoder", ("prune_vocabulary", "layers"))),
        ("corpus", "validation_share", "validation_shar", _read_stage("corpus", ("validation_share", "salt"))),
    ],
)  # fmt: skip
def test_every_section_reader_is_strict(
    tmp_path: Path, where: str, old: str, new: str, read: Callable[[Path], object]
) -> None:
    read(ROOT / "params.yaml")  # the shipped file loads
    path = _write(tmp_path, lambda p: _rename(p, where, old, new))
    with pytest.raises(ValueError, match=re.escape(f"params.yaml: unknown key '{where}.{new}' (did you mean '{old}'?)")) as caught:
        read(path)
    assert SECRET not in str(caught.value) and "4711" not in str(caught.value)
