/**
 * bedrock/tool-use-id: a `toolUseId` is 1 to 64 characters (API reference,
 * providers.md §5, "Tool ids & names") matching the pattern the live API
 * enforces, `[a-zA-Z0-9_.:-]+` ("Member must satisfy regular expression
 * pattern: [a-zA-Z0-9_.:-]+", tontinton/maki#38). The API reference page
 * shows the older `[a-zA-Z0-9_-]+`; Moonshot (Kimi) on Bedrock accepted its
 * `functions.get_temperature:0` (corpus record
 * `test_bedrock_moonshotai_tool_call`), which the live pattern allows.
 */
import { defineRule } from '../rule.js';
import { toolIdPatternCheck } from '../targets.js';

const ID = /^[a-zA-Z0-9_.:-]{1,64}$/;

/** The `bedrock/tool-use-id` rule. */
export default defineRule({
  meta: {
    id: 'bedrock/tool-use-id',
    description: 'A tool call id or result callId that is not 1-64 of [a-zA-Z0-9_.:-].',
    defaultSeverity: 'error',
    fixable: false,
    target: 'bedrock',
    messages: {
      pattern:
        '{kind} id "{id}" is not 1 to 64 characters of [a-zA-Z0-9_.:-]; Bedrock rejects it: "failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+"',
    },
  },
  check: toolIdPatternCheck(ID),
});
