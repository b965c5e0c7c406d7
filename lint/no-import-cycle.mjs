// ESLint rule `patchbay/no-import-cycle`: no file may reach itself through its imports, type-only
// imports included (import-x/no-cycle skips those, and a cycle of types still ties two modules into
// one). The linted file's imports come from its syntax tree; the files they lead to are read from
// disk once per lint run. Relative and `@/` specifiers are followed; packages are not.
import fs from "node:fs";
import path from "node:path";

const SPECIFIER = /^\s*(?:import|export)\s[^'"]*?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];
const importsByFile = new Map();

function resolveSpecifier(root, fromFile, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOf(root, file) {
  let imports = importsByFile.get(file);
  if (imports) return imports;
  const source = fs.readFileSync(file, "utf8");
  imports = [];
  for (const match of source.matchAll(SPECIFIER)) {
    const target = resolveSpecifier(root, file, match[1] ?? match[2]);
    if (target) imports.push(target);
  }
  importsByFile.set(file, imports);
  return imports;
}

/** The chain of files from `start` back to `goal`, or null when `goal` is not reachable. */
function findChain(root, start, goal) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [file, chain] = stack.pop();
    if (file === goal) return chain;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of importsOf(root, file)) stack.push([next, [...chain, next]]);
  }
  return null;
}

export const noImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid import cycles, type-only imports included." },
    messages: { cycle: "Import cycle: {{chain}}." },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const check = (node) => {
      if (!node.source || typeof node.source.value !== "string") return;
      const target = resolveSpecifier(root, file, node.source.value);
      if (!target) return;
      const chain = target === file ? [file] : findChain(root, target, file);
      if (!chain) return;
      const names = [file, ...chain].map((entry) => path.relative(root, entry));
      context.report({ node, messageId: "cycle", data: { chain: names.join(" -> ") } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { "no-import-cycle": noImportCycle } };
