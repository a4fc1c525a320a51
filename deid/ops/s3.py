"""Object storage locations (``s3://bucket/prefix``) for batch inputs and outputs.

The anonymize flow reads decisions from, and writes results to, either a local path or an S3
prefix; this module is the one place that knows the difference. It uses boto3 with the
standard credential chain (``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY`` or a profile)
and an S3-compatible endpoint (SeaweedFS, MinIO …) from ``endpoint_url``, else
``$AWS_ENDPOINT_URL_S3`` / ``$AWS_ENDPOINT_URL`` (boto3 reads those itself), else
``$MLFLOW_S3_ENDPOINT_URL`` (set wherever MLflow already talks to the same store).

Errors name the bucket and key, never object content.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEME = "s3://"


@dataclass(frozen=True)
class S3Location:
    """A bucket and a key prefix (no leading slash; '' = the whole bucket)."""

    bucket: str
    prefix: str = ""

    @classmethod
    def parse(cls, url: str) -> S3Location:
        if not is_s3(url):
            raise ValueError(f"not an S3 URL (s3://bucket/prefix): {url!r}")
        bucket, _, prefix = url[len(SCHEME) :].partition("/")
        if not bucket:
            raise ValueError(f"no bucket in {url!r}")
        return cls(bucket, prefix.strip("/"))

    def key(self, name: str) -> str:
        """The object key of ``name`` below this prefix."""
        return f"{self.prefix}/{name}" if self.prefix else name

    @property
    def url(self) -> str:
        return f"{SCHEME}{self.bucket}/{self.prefix}".rstrip("/")


def is_s3(location: str | Path) -> bool:
    return str(location).startswith(SCHEME)


def client(endpoint_url: str | None = None) -> Any:
    """A boto3 S3 client; path-style addressing, which S3-compatible stores need."""
    import boto3
    from botocore.config import Config

    endpoint = (
        endpoint_url
        or os.environ.get("AWS_ENDPOINT_URL_S3")
        or os.environ.get("AWS_ENDPOINT_URL")
        or os.environ.get("MLFLOW_S3_ENDPOINT_URL")
    )
    return boto3.client(
        "s3",
        endpoint_url=endpoint or None,
        region_name=os.environ.get("AWS_DEFAULT_REGION", "us-east-1"),
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 5}),
    )


def list_keys(location: S3Location, s3: Any = None) -> list[str]:
    """Every object key below the prefix, sorted (a prefix is a folder: ``a/`` not ``ab``)."""
    s3 = s3 or client()
    prefix = f"{location.prefix}/" if location.prefix else ""
    keys: list[str] = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=location.bucket, Prefix=prefix):
        keys += [obj["Key"] for obj in page.get("Contents", []) if not obj["Key"].endswith("/")]
    return sorted(keys)


def download_prefix(
    url: str, target: str | Path, s3: Any = None, *, write: Callable[[Path, bytes], None] | None = None
) -> list[Path]:
    """Copy every object below ``url`` into ``target`` keeping relative paths; objects already
    there with the same size are not fetched again (a re-run resumes cheaply). ``write``:
    how an object's bytes go to disk instead (``deid.ops.sealed.Seal.write``: encrypted; then
    every object is fetched)."""
    location, s3 = S3Location.parse(url), s3 or client()
    target = Path(target)
    out: list[Path] = []
    for key in list_keys(location, s3):
        rel = key[len(location.prefix) :].lstrip("/") if location.prefix else key
        if not rel or any(part in ("", ".", "..") for part in rel.split("/")):
            continue  # not a plain relative path: never write outside target
        path = target / rel
        if write is not None:
            write(path, s3.get_object(Bucket=location.bucket, Key=key)["Body"].read())
        elif not (path.exists() and path.stat().st_size == s3.head_object(Bucket=location.bucket, Key=key)["ContentLength"]):
            path.parent.mkdir(parents=True, exist_ok=True)
            s3.download_file(location.bucket, key, str(path))
        out.append(path)
    return out


def download_object(url: str, target: str | Path, s3: Any = None) -> Path | None:
    """One object (``s3://bucket/key``) to ``target``; ``None`` when it does not exist."""
    from botocore.exceptions import ClientError

    location, s3 = S3Location.parse(url), s3 or client()
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        s3.download_file(location.bucket, location.prefix, str(target))
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
            return None
        raise
    return target


def upload_files(paths: list[Path], base: str | Path, url: str, s3: Any = None) -> list[str]:
    """Upload ``paths`` (below the local folder ``base``) to the prefix ``url``; returns the
    object URLs."""
    location, s3 = S3Location.parse(url), s3 or client()
    out = []
    for path in paths:
        key = location.key(Path(path).relative_to(base).as_posix())
        s3.upload_file(str(path), location.bucket, key)
        out.append(f"{SCHEME}{location.bucket}/{key}")
    return out


def ensure_bucket(name: str, s3: Any = None) -> None:
    """Create a bucket unless it exists (local stacks and tests start empty)."""
    from botocore.exceptions import ClientError

    s3 = s3 or client()
    try:
        s3.head_bucket(Bucket=name)
    except ClientError:
        s3.create_bucket(Bucket=name)
