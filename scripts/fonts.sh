#!/bin/sh
# fonts.sh regenerates the font subsets the cards and SVG measurements embed
# (internal/share/fonts/*.otf) from the Noto fonts on this machine and the
# strings that can occur: every message of every locale, plus the Latin,
# Greek, Cyrillic and punctuation blocks for names. Run it (make fonts) after
# adding or changing translations; TestFontsCoverLocales fails until you do.
#
# Needs: fonts-noto-core, fonts-noto-cjk and python3-fonttools (Debian):
#   apt-get install -y fonts-noto-core fonts-noto-cjk python3-fonttools
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
CORE=${NOTO_CORE:-/usr/share/fonts/truetype/noto}
CJK=${NOTO_CJK:-/usr/share/fonts/opentype/noto}
OUT=internal/share/fonts
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# chars.py LANG... writes the characters of those locales' messages.
cat >"$TMP/chars.py" <<'PY'
import sys, tomllib
chars = set()
def walk(v):
    if isinstance(v, str):
        chars.update(v)
    elif isinstance(v, dict):
        for x in v.values():
            walk(x)
for tag in sys.argv[1:]:
    with open(f"locales/{tag}.toml", "rb") as f:
        walk(tomllib.load(f))
# Glyphs the card draws itself (status marks, ellipsis), separators, and
# the languages' own names (internal/i18n.Languages, for the switcher).
chars.update("≈×!–…·÷—“”‘’«»„‹›")
chars.update("English 日本語 简体中文 한국어 Deutsch Español Français Português (Brasil)")
sys.stdout.write("".join(sorted(c for c in chars if c >= " ")))
PY

LATIN='U+0020-007E,U+00A0-024F,U+0300-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2000-206F,U+20A0-20C0,U+2100-215F,U+2190-21FF,U+2200-22FF,U+25A0-25FF'
# subset SRC [--font-number=N] OUT TEXTFILE [UNICODES]
# (sh functions share the caller's variables, hence the s_ names.)
subset() {
  s_src=$1; s_num=$2; s_out=$3; s_text=$4; s_uni=${5:-}
  $PY -m fontTools.subset "$s_src" $s_num --text-file="$s_text" ${s_uni:+--unicodes="$s_uni"} \
    --layout-features='kern,liga,ccmp,locl,vert' --name-IDs='*' --name-languages='*' \
    --notdef-outline --no-hinting --output-file="$OUT/$s_out"
}

$PY "$TMP/chars.py" en ja zh-Hans ko de es fr pt-BR >"$TMP/all.txt"
for w in Regular Bold; do
  subset "$CORE/NotoSans-$w.ttf" "" "NotoSans-$w.subset.ttf" "$TMP/all.txt" "$LATIN"
done
# One Noto Sans CJK face per script, each with its own language's glyph
# forms (the collections hold JP 0, KR 1, SC 2) and its locale's characters;
# kana and CJK punctuation whole, since names use them too.
for spec in ja:0:JP:U+3000-30FF,U+FF00-FFEF ko:1:KR:U+3000-303F,U+3130-318F,U+FF00-FFEF zh-Hans:2:SC:U+3000-303F,U+FF00-FFEF; do
  tag=${spec%%:*}; rest=${spec#*:}; num=${rest%%:*}; rest=${rest#*:}; region=${rest%%:*}; extra=${rest#*:}
  $PY "$TMP/chars.py" "$tag" >"$TMP/$tag.txt"
  for w in Regular Bold; do
    subset "$CJK/NotoSansCJK-$w.ttc" "--font-number=$num" "NotoSansCJK$region-$w.subset.otf" "$TMP/$tag.txt" "$extra"
  done
done
ls -l "$OUT"
