/**
 * Meta tests that keep the rules, their files, docs, fixtures, the SPEC's
 * rule table and `histlint rules` in sync (STYLE.md item 8).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TARGETS } from '../src/names.js';
import { TURN_ORDER_RULES } from '../src/core/turn-order.js';
import { lintBytes } from '../src/lint/engine.js';
import { RULES, ruleDocsUrl } from '../src/rules/index.js';
import type { Rule, Severity } from '../src/rules/rule.js';
import { ROOT, runCli } from './helpers/cli.js';
import { describeShared, SHARED } from './helpers/shared.js';
import { discoverRuleCases, enabledRules } from './helpers/rule-fixtures.js';

const RULES_DIR = path.join(ROOT, 'src', 'rules');
const DOCS_DIR = path.join(ROOT, 'docs', 'rules');
/** Files in src/rules that are not rules (targets.ts: what the provider rules share). */
const NOT_RULES = new Set(['index.ts', 'rule.ts', 'targets.ts']);

const ids = RULES.map((r) => r.meta.id);
/** The rules normalize repairs for a target (their pages' examples must come out repaired). */
const TURN_ORDER_IDS = new Set(Object.values(TURN_ORDER_RULES).flat());

/** Rule ids from the files under src/rules (a provider rule `<target>/<id>` sits in a folder). */
function ruleFiles(dir = RULES_DIR, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory())
      out.push(...ruleFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`));
    else if (entry.name.endsWith('.ts') && !(prefix === '' && NOT_RULES.has(entry.name))) {
      out.push(prefix + entry.name.slice(0, -3));
    }
  }
  return out.sort();
}

/** The rows of the rule table in SPEC.md §3: id and default severity. */
function specRuleTable(): Map<string, Severity> {
  const spec = readFileSync(path.join(SHARED, 'SPEC.md'), 'utf8');
  const start = spec.indexOf('## 3. Lint rules');
  const end = spec.indexOf('\n## ', start + 1);
  expect(start, 'SPEC.md has a "## 3. Lint rules" section').toBeGreaterThan(-1);
  const section = spec.slice(start, end === -1 ? undefined : end);
  const rows = new Map<string, Severity>();
  for (const line of section.split('\n')) {
    const m = /^\|\s*`([^`]+)`\s*\|\s*(off|warn|error)\b[^|]*\|/.exec(line);
    if (m !== null) rows.set(m[1]!, m[2] as Severity);
  }
  return rows;
}

/** A markdown section's body, from its `## title` to the next `## ` heading. */
function section(markdown: string, title: string): string | undefined {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) return undefined;
  const from = start + title.length + 5;
  const end = markdown.indexOf('\n## ', from);
  return markdown.slice(from, end === -1 ? undefined : end);
}

/** The first ```json block of a section. */
function jsonExample(body: string | undefined): string | undefined {
  const m = body === undefined ? null : /```json\n([\s\S]*?)\n```/.exec(body);
  return m === null ? undefined : m[1] + '\n';
}

/**
 * Every rule at its default, as `histlint lint` resolves it (a provider rule's
 * page is checked under its `--target`); the rule under test on (at its
 * default, or `warn` when off).
 */
function rulesFor(rule: Rule) {
  const { defaultSeverity, id, target } = rule.meta;
  return enabledRules({
    target,
    rules: { [id]: defaultSeverity === 'off' ? 'warn' : defaultSeverity },
  });
}

/** A message template as a regex: `{name}` matches any text. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
}

describe('rule modules', () => {
  it('every file under src/rules is a registered rule, and every rule has its file', () => {
    expect(ruleFiles()).toEqual([...ids].sort());
  });

  it('has no duplicate ids', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  for (const id of ids) {
    it(`${id}: src/rules/${id}.ts exports the rule with that id`, async () => {
      const file = path.join(RULES_DIR, `${id}.ts`);
      expect(existsSync(file)).toBe(true);
      const mod = (await import(pathToFileURL(file).href)) as { default: Rule };
      expect(mod.default.meta.id).toBe(id);
      expect(mod.default).toBe(RULES.find((r) => r.meta.id === id));
    });
  }

  it('ids are kebab-case (provider rules: <target>/<id>)', () => {
    for (const id of ids) expect(id).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*\/)?[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('a provider rule is named after its target, a --target value, and comes after the core rules', () => {
    const firstTarget = RULES.findIndex((r) => r.meta.target !== undefined);
    RULES.forEach((r, k) => {
      const { id, target } = r.meta;
      if (target === undefined) {
        expect(id, 'a rule without target has no prefix').not.toContain('/');
        if (firstTarget !== -1)
          expect(k, `${id} comes before the provider rules`).toBeLessThan(firstTarget);
        return;
      }
      expect(TARGETS).toContain(target);
      expect(id.startsWith(`${target}/`), `${id} starts with ${target}/`).toBe(true);
    });
    // Grouped by target, in the order --target lists them.
    const order = RULES.flatMap((r) =>
      r.meta.target === undefined ? [] : [TARGETS.indexOf(r.meta.target as never)],
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});

describeShared('SPEC.md §3 rule table', 'SPEC.md', () => {
  // The table is a minimum (SPEC §3): every rule it names is registered with its default; the
  // registry may hold more, each with its doc page (checked below).
  it('is a subset of the registry, with the same default severities', () => {
    const table = specRuleTable();
    expect(table.size).toBeGreaterThan(0);
    const registry = new Map(RULES.map((r) => [r.meta.id, r.meta.defaultSeverity]));
    for (const [id, severity] of table) {
      expect(registry.has(id), `${id} is registered`).toBe(true);
      expect(registry.get(id), `${id} default`).toBe(severity);
    }
  });
});

describe('rule docs', () => {
  const readme = readFileSync(path.join(DOCS_DIR, 'README.md'), 'utf8');

  for (const rule of RULES) {
    const { id, defaultSeverity, fixable } = rule.meta;
    describe(id, () => {
      const file = path.join(DOCS_DIR, `${id}.md`);
      const page = existsSync(file) ? readFileSync(file, 'utf8') : '';

      it(`has docs/rules/${id}.md with a title, severity, fixability and every section`, () => {
        expect(existsSync(file)).toBe(true);
        expect(page.split('\n')[0]).toBe(`# \`${id}\``);
        expect(page).toContain(`**Default severity:** \`${defaultSeverity}\``);
        const fixLine = /\*\*Fixable:\*\* (\S+)/.exec(page);
        expect(fixLine?.[1]?.startsWith(fixable === false ? 'no' : 'yes')).toBe(true);
        for (const title of ['Why', 'Incorrect', 'Correct', 'Fix']) {
          expect(section(page, title), `section "${title}"`).toBeDefined();
        }
        // "Why" is one paragraph.
        expect(section(page, 'Why')!.trim()).not.toMatch(/\n\s*\n/);
      });

      it('its docs URL names that page', () => {
        expect(ruleDocsUrl(id).endsWith(`docs/rules/${id}.md`)).toBe(true);
      });

      it('its "Incorrect" example is reported by the rule and its "Correct" example is not', () => {
        const incorrect = jsonExample(section(page, 'Incorrect'));
        const correct = jsonExample(section(page, 'Correct'));
        expect(incorrect, 'an Incorrect json block').toBeDefined();
        expect(correct, 'a Correct json block').toBeDefined();
        const lint = (text: string, from: string | undefined) =>
          lintBytes(`${id}.json`, Buffer.from(text, 'utf8'), {
            rules: rulesFor(rule),
            // As `histlint lint` checks the page's examples: a provider rule under its target.
            target: rule.meta.target ?? 'auto',
            // An example the page says is "Read with `--from X`" is read so.
            ...(from === undefined ? {} : { from }),
          }).findings;
        const fromOf = (body: string | undefined) =>
          body === undefined ? undefined : /Read with `--from ([a-z-]+)`/.exec(body)?.[1];
        const incorrectFrom = fromOf(section(page, 'Incorrect'));
        const correctFrom = fromOf(section(page, 'Correct'));
        expect(
          lint(incorrect!, incorrectFrom).filter((f) => f.ruleId === id).length,
        ).toBeGreaterThan(0);
        // The correct example is clean under every rule at its default.
        expect(lint(correct!, correctFrom)).toEqual([]);
      });

      if (TURN_ORDER_IDS.has(id)) {
        it('normalize with its target repairs its "Incorrect" example', async () => {
          const dir = mkdtempSync(path.join(tmpdir(), 'histlint-meta-'));
          try {
            writeFileSync(path.join(dir, 'in.json'), jsonExample(section(page, 'Incorrect'))!);
            const r = await runCli(
              ['normalize', 'in.json', '-o', 'out.json', '--target', rule.meta.target!],
              { cwd: dir },
            );
            expect(r.code, r.stderr).toBe(0);
            const out = readFileSync(path.join(dir, 'out.json'));
            const left = lintBytes('out.json', out, {
              rules: rulesFor(rule),
              target: rule.meta.target!,
            }).findings.filter((f) => f.ruleId === id);
            expect(left).toEqual([]);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        });
      }

      it('is listed in docs/rules/README.md with its default and fixability', () => {
        const row = readme.split('\n').find((l) => l.startsWith(`| [\`${id}\`](./${id}.md) |`));
        expect(row, `README row for ${id}`).toBeDefined();
        const cells = row!.split('|').map((c) => c.trim());
        expect(cells[2]!.split(' ')[0]).toBe(defaultSeverity);
        expect(cells[3] === 'no').toBe(fixable === false);
      });
    });
  }

  it('README lists no rule that is not registered', () => {
    const listed = [...readme.matchAll(/^\| \[`([^`]+)`\]/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...ids].sort());
  });

  it('has no page for a rule that is not registered', () => {
    const pages = readdirSync(DOCS_DIR, { recursive: true, encoding: 'utf8' })
      .map((f) => f.split(path.sep).join('/'))
      .filter((f) => f.endsWith('.md') && f !== 'README.md')
      .map((f) => f.slice(0, -3));
    expect(pages.sort()).toEqual([...ids].sort());
  });
});

/**
 * The provider error a target rule's message quotes: the text between the
 * double quotes after the last `: "` (the message ends with it), e.g.
 * `...; Anthropic rejects it: "text content blocks must be non-empty"`.
 */
function quotedProviderError(template: string): string | undefined {
  const m = /: "([^"]*(?:"[^"]*)*)"$/.exec(template);
  return m?.[1];
}

/** The literal pieces of a quote: `{placeholders}` and `...` elisions cut it; short pieces are skipped. */
function quoteFragments(quote: string): string[] {
  return quote
    .split(/\{\w+\}|\.\.\.|\u2026/)
    .map((f) => f.trim())
    .filter((f) => f.length >= 8);
}

/** Markdown text with every run of whitespace (line wraps included) as one space. */
function flatten(text: string): string {
  return text.replace(/\s+/g, ' ');
}

describe('provider rules quote the provider error they prevent', () => {
  for (const rule of RULES.filter((r) => r.meta.target !== undefined)) {
    const { id, messages } = rule.meta;
    const page = flatten(
      existsSync(path.join(DOCS_DIR, `${id}.md`))
        ? readFileSync(path.join(DOCS_DIR, `${id}.md`), 'utf8')
        : '',
    );

    for (const [messageId, template] of Object.entries(messages)) {
      it(`${id} "${messageId}" ends with the provider error in quotes, which its docs page quotes`, () => {
        const quote = quotedProviderError(template);
        expect(
          quote,
          `message "${messageId}" of ${id} ends with : "<provider error>"`,
        ).toBeDefined();
        const fragments = quoteFragments(quote!);
        expect(fragments.join('').length, 'the quote has text of its own').toBeGreaterThanOrEqual(
          20,
        );
        for (const fragment of fragments) {
          expect(page, `docs/rules/${id}.md quotes "${fragment}"`).toContain(flatten(fragment));
        }
      });
    }
  }
});

describe('rule fixtures', () => {
  const { cases } = discoverRuleCases();

  for (const rule of RULES) {
    const { id, messages } = rule.meta;
    const mine = cases.filter((c) => c.ruleId === id);

    it(`${id} has at least one valid and one invalid case`, () => {
      expect(mine.filter((c) => c.name.startsWith('valid-')).length).toBeGreaterThan(0);
      expect(mine.filter((c) => c.name.startsWith('invalid-')).length).toBeGreaterThan(0);
    });

    it(`${id}: every message template is used by some fixture`, () => {
      const used = mine.flatMap(
        (c) =>
          JSON.parse(readFileSync(path.join(c.dir, 'expected.json'), 'utf8')) as {
            message: string;
          }[],
      );
      for (const [messageId, template] of Object.entries(messages)) {
        const pattern = templatePattern(template);
        expect(
          used.some((f) => pattern.test(f.message)),
          `message "${messageId}" of ${id} appears in no expected.json`,
        ).toBe(true);
      }
    });
  }
});

describe('histlint rules --format json', () => {
  it('lists every rule with its default, fixability and docs URL', async () => {
    const r = await runCli(['rules', '--format', 'json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as {
      id: string;
      defaultSeverity: string;
      fixable: string | null;
      docs: string;
    }[];
    expect(rows.map((x) => x.id)).toEqual(ids);
    for (const rule of RULES) {
      const row = rows.find((x) => x.id === rule.meta.id)!;
      expect(row.defaultSeverity).toBe(rule.meta.defaultSeverity);
      expect(row.fixable).toBe(rule.meta.fixable === false ? null : rule.meta.fixable);
      expect(row.docs).toBe(ruleDocsUrl(rule.meta.id));
      expect(existsSync(path.join(DOCS_DIR, `${rule.meta.id}.md`))).toBe(true);
    }
  });
});
