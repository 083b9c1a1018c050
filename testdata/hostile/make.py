"""Writes the hostile corpus: python3 make.py (from this folder). Each file
is small on disk; the bombs inflate past the limits only when read."""
import gzip, io, json, tarfile, zipfile

BASE = open("../formats/llm-inference-bench/benchmark_results_0.7.8.json", "rb").read()
VLLM = open("../formats/other-tools/vllm_bench_serve_synth_concurrency.json", "rb").read()
SGLANG = open("../formats/other-tools/sglang_bench_serving_latest.jsonl", "rb").read().strip()


def w(name, data):
    open(name, "wb").write(data if isinstance(data, bytes) else data.encode())


def doc(edit):
    d = json.loads(BASE)
    edit(d)
    return json.dumps(d, ensure_ascii=False).encode()


def model(v):
    return doc(lambda d: d["metadata"].__setitem__("model", v))


def first(key, v):
    return doc(lambda d: d["results"][0].__setitem__(key, v))


def zipped(entries):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buf.getvalue()


def tarred(entries):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for name, data in entries:
            ti = tarfile.TarInfo(name)
            if isinstance(data, tuple):  # (type, link target)
                ti.type, ti.linkname = data
            else:
                ti.size = len(data)
            t.addfile(ti, io.BytesIO(data) if not isinstance(data, tuple) else None)
    return buf.getvalue()


# Not JSON, or not quite.
w("empty.json", b"")
w("whitespace.json", b" \n\t \n")
w("not_json.json", b"hello, world")
w("truncated.json", BASE[: len(BASE) // 2])
w("bad_utf8.json", BASE.replace(b'"Qwen/Qwen3-30B-A3B-FP8"', b'"Qwen/\xffQwen3"', 1))
w("utf8_bom.json", b"\xef\xbb\xbf" + BASE)
w("utf16le_bom.json", b"\xff\xfe" + BASE.decode().encode("utf-16-le"))
w("utf16be_bom.json", b"\xfe\xff" + BASE.decode().encode("utf-16-be"))
w("raw_nul_byte.json", BASE.replace(b'"Qwen/Qwen3-30B-A3B-FP8"', b'"Qwen/\x00Qwen3"', 1))
w("top_level_string.json", b'"benchmark_results"')
w("top_level_null.json", b"null")
w("top_level_number.json", b"42")
w("top_level_array.json", b'[{"metadata": {}}, {"results": []}]')
w("million_element_array.json", "[" + ",".join(["0"] * 1_000_000) + "]")
w("million_results.json", '{"metadata": {"version": "0.7.8"}, "results": [' + ",".join(["0"] * 1_000_000) + "]}")
w("deep_arrays.json", '{"results": ' + "[" * 100000 + "]" * 100000 + "}")
w("deep_objects.json", '{"a": ' * 100000 + "1" + "}" * 100000)
# Numbers and types.
w("number_1e400.json", BASE.replace(b'"aggregate_tps": ', b'"aggregate_tps": 1e400, "x": ', 1))
w("number_negative_zero.json", first("aggregate_tps", -0.0))
w("number_nan.json", BASE.replace(b'"aggregate_tps": ', b'"aggregate_tps": NaN, "x": ', 1))
w("number_huge_concurrency.json", first("concurrency", 10**30))
w("type_concurrency_string.json", first("concurrency", "1"))
w("type_results_object.json", doc(lambda d: d.__setitem__("results", {"0": d["results"][0]})))
w("duplicate_keys.json", BASE.replace(b'"aggregate_tps": ', b'"aggregate_tps": 1, "aggregate_tps": ', 1))
# Text fields.
w("text_nul_escaped.json", model("Qwen\u0000Qwen3"))
w("text_control_chars.json", model("Qwen\u0007\u001b[31mred\u0008"))
w("text_huge_model.json", model("Q" * 1_000_000))
w("text_html_model.json", model('<script>alert(1)</script><img src=x onerror=alert(2)>'))
w("text_csv_formula_model.json", model('=HYPERLINK("http://evil.example","click")'))
w("text_markdown_bbcode_model.json", model("[url=javascript:alert(1)]x[/url] | **bold** | [x](javascript:alert(1))"))
# Serving records without a concurrency.
w("rate_infinity_no_cap.jsonl", SGLANG.replace(b'"max_concurrency": 64', b'"max_concurrency": null', 1) + b"\n")
w("rate_missing_no_cap.jsonl", SGLANG.replace(b'"request_rate": Infinity, ', b"", 1).replace(b'"max_concurrency": 64', b'"max_concurrency": null', 1) + b"\n")
# Archives.
w("gzip_bomb.json.gz", gzip.compress(b" " * (40 << 20), 9))
w("gzip_garbage.json.gz", b"\x1f\x8b\x08\x00garbage, not deflate")
w("zip_bomb.zip", zipped([("c4.json", b" " * (40 << 20))]))
w("zip_nested.zip", zipped([("inner.zip", zipped([("c4.json", VLLM)]))]))
w("zip_many_files.zip", zipped([("f%03d.json" % i, b"{}") for i in range(300)]))
w("zip_only_skipped.zip", zipped([("__MACOSX/._c4.json", VLLM), (".hidden.json", VLLM), ("dir/", b"")]))
w("zip_traversal_names.zip", zipped([("../../etc/c4.json", VLLM), ("/abs/c4b.json", VLLM.replace(b'"max_concurrency": 4', b'"max_concurrency": 8', 1))]))
w("tar_nested_gz.tar", tarred([("c4.json.gz", gzip.compress(VLLM))]))
w("tar_symlink_only.tar", tarred([("c4.json", (tarfile.SYMTYPE, "/etc/passwd"))]))
w("tar_truncated.tar", tarred([("c4.json", VLLM)])[:700])
