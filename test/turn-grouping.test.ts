/**
 * The writers and the target rules group provider turns in one place
 * (src/core/turns.ts), so they cannot disagree: every corpus conversation,
 * written in each provider's format (`convert --to P --lossy`), gets none of
 * P's turn-order errors when linted as that format (`lint --target P`),
 * unless the conversation itself has a pairing error the conversion carries
 * (a call without a result).
 */
import { expect, it } from 'vitest';
import { TURN_ORDER_RULES } from '../src/core/turn-order.js';
import { normalizeHistory } from '../src/core/normalize.js';
import { TARGETS } from '../src/names.js';
import { formatByName } from '../src/formats/index.js';
import { lintText } from '../src/lint/engine.js';
import { SeverityResolver } from '../src/lint/severity.js';
import { stringifyJson } from '../src/model/json.js';
import { ROOT } from './helpers/cli.js';
import { corpusConversations } from './helpers/corpus.js';
import { describeShared } from './helpers/shared.js';

const rules = new SeverityResolver({}, ROOT, new Map()).forFile(undefined);

describeShared('convert --to P, then lint --target P', 'corpus', () => {
  const conversations = corpusConversations();

  it('reads the corpus', () => {
    expect(conversations.length).toBeGreaterThan(300);
  });

  for (const target of TARGETS) {
    it(`${target}: no turn-order error on any corpus conversation`, () => {
      const writer = formatByName(target)!;
      const turnOrder = new Set(TURN_ORDER_RULES[target]);
      const failures: string[] = [];
      for (const c of conversations) {
        const { conversation } = c.format.read(c.value);
        // What the conversion carries of a broken pairing is the pairing rules' business.
        if (normalizeHistory(conversation.messages).changed) continue;
        const { value } = writer.write(conversation);
        const findings = lintText(stringifyJson(value, 2), { rules, from: target, target });
        for (const f of findings)
          if (f.severity === 'error' && turnOrder.has(f.ruleId))
            failures.push(
              `${c.where} (${c.format.name}): ${f.ruleId} at ${f.pointer}: ${f.message}`,
            );
      }
      expect(failures).toEqual([]);
    });
  }
});
