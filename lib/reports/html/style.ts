// The page's stylesheet, inlined into the page: a self-contained file loads nothing else. Entity
// colours c0-c7 are light enough for dark text and distinct for the usual handful of entities.
export const PAGE_STYLE = `
:root { color-scheme: light; --line: #d0d7de; --muted: #57606a; --head: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--head); }
main { padding: 8px 24px 32px; }
h1 { margin: 0 0 4px; font-size: 22px; }
h2 { margin: 28px 0 8px; font-size: 19px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 20px 0 4px; font-size: 16px; }
nav a { margin-right: 6px; }
a { color: #0969da; text-decoration: none; }
code { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
.meta, .note, .empty { color: var(--muted); margin: 4px 0; }
.kind { font-size: 11px; font-weight: 600; color: #fff; background: #57606a; border-radius: 3px; padding: 1px 5px; vertical-align: middle; }
table { border-collapse: collapse; margin: 6px 0 10px; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: var(--head); font-weight: 600; }
th.pk { background: #fbfbfc; font-weight: normal; width: 22%; }
td.sk { width: 22%; }
.attrs { line-height: 1.9; }
.attr { display: inline-block; border: 1px solid var(--line); border-radius: 3px; padding: 0 5px; margin: 0 2px 2px 0; background: #fff; }
.attr b { color: var(--muted); font-weight: 600; margin-right: 3px; }
.attr.managed { background: var(--head); color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.entity { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #1f2328; }
.c0 { background: #c8e1ff; } .c1 { background: #ffd8b5; } .c2 { background: #c6efce; } .c3 { background: #f4c7e0; }
.c4 { background: #fff1a8; } .c5 { background: #d9ccff; } .c6 { background: #b8ece8; } .c7 { background: #e6d5c3; }
.pattern { border: 1px solid var(--line); border-radius: 6px; padding: 4px 14px 8px; margin: 12px 0; }
.pattern dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 6px 0; }
.pattern dt { color: var(--muted); font-weight: 600; }
.pattern dd { margin: 0; }
.results { width: auto; min-width: 50%; }
.error { color: #cf222e; }
.chart td { font-size: 13px; }
`;
