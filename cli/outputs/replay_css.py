"""The stylesheet of ``chkobba replay --html``'s page (:mod:`.replay_html`): inline, so that
the page is one file that fetches nothing; sized for a phone first."""

from __future__ import annotations

__all__ = ["CSS"]

CSS = """
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
 background:#f3efe6;color:#1d1d1d}
main{max-width:46rem;margin:0 auto;padding:.75rem;box-sizing:border-box}
h1{font-size:1.45rem;margin:.3rem 0 .6rem}
h2{font-size:1.15rem;margin:1.1rem 0 .4rem}
h3{font-size:1rem;margin:.7rem 0 .3rem}
p,li{overflow-wrap:break-word}
section{background:#fff;border-radius:.6rem;padding:.6rem .8rem;margin:.7rem 0;
 box-shadow:0 1px 2px rgba(0,0,0,.12)}
.verdict.valid{border-left:.5rem solid #1b7f3b}
.verdict.invalid{border-left:.5rem solid #b3261e}
.verdict.incomplete{border-left:.5rem solid #b36b00}
.verdict .big{font-size:1.35rem;font-weight:700;margin:.2rem 0}
.valid .big{color:#1b7f3b}.invalid .big{color:#b3261e}.incomplete .big{color:#b36b00}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;padding:.25rem .35rem;border-bottom:1px solid #e4e0d6;
 vertical-align:top}
td,th{overflow-wrap:break-word}
.who{overflow-wrap:normal;word-break:keep-all;white-space:nowrap}
th.nw,td.nw{white-space:nowrap}
td.n,th.n{text-align:right}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em}
code.fp{white-space:nowrap}
.c{display:inline-block;min-width:1.9em;padding:.05em .25em;margin:.1em .12em;
 border:1px solid #9b978d;border-radius:.3em;background:#fffdf8;text-align:center;
 font-weight:600;white-space:nowrap}
.c.red{color:#c4161c}.c.black{color:#111}
.c.hidden{color:#777;background:#e9e5db}
ul.plays{list-style:none;padding-left:.4rem;margin:.2rem 0}
ul.plays li{margin:.15rem 0}
ul.plays .no{display:inline-block;min-width:4.5rem;color:#777}
.chk{font-weight:700;color:#6a1b9a}
li.stop{color:#b3261e}
.who{font-weight:600}
.grade{font-size:.8em;padding:0 .3em;border-radius:.3em;background:#e7f2ea;color:#1b5e30;
 white-space:nowrap}
.grade.forced{background:#eee;color:#555}.grade.mistake{background:#fff0d6;color:#8a5200}
.grade.blunder{background:#fde2e0;color:#9b1c14;font-weight:700}
.grade.inaccuracy{background:#fff8e1;color:#6d5300}
.better{font-size:.85em;color:#5c5c5c}
.why{display:block;font-size:.85em;color:#5c5c5c;font-style:italic}
.held{color:#5c5c5c;font-size:.85em}.held .c{min-width:1.5em;font-weight:500}
.muted{color:#5c5c5c;font-size:.9rem}
@media (max-width:30rem){main{padding:.4rem}section{padding:.5rem}
 th,td{padding:.2rem .25rem}}
footer{font-size:.85rem;color:#5c5c5c;margin:1rem 0 2rem}
"""
