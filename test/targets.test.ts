/**
 * Ground truth for the provider-target rules (SPEC §3, "Provider targets"):
 * real requests recorded by pydantic-ai in shared/corpus, each with the
 * provider's verdict (`provider_accepted`). Every record is linted with
 * `--target <its provider>`: an accepted record must get no `error` from a
 * target rule, and the rejected records whose error is about the shape of
 * the history (shared/corpus/SOURCES.md) must be caught.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../src/formats/detect.js';
import { formatByName } from '../src/formats/index.js';
import { lintText, type Finding } from '../src/lint/engine.js';
import { SeverityResolver } from '../src/lint/severity.js';
import type { JsonValue } from '../src/model/json.js';
import { ROOT, SHARED } from './helpers/cli.js';

const CORPUS = path.join(SHARED, 'corpus');

interface Folder {
  folder: string;
  target: string;
  /** The format the records' requests are in. */
  format: string;
}

const FOLDERS: Folder[] = [
  { folder: 'openai-chat', target: 'openai-chat', format: 'openai-chat' },
  { folder: 'openai-responses', target: 'openai-responses', format: 'openai-responses' },
  { folder: 'anthropic', target: 'anthropic', format: 'anthropic' },
  { folder: 'gemini', target: 'gemini', format: 'gemini' },
  { folder: 'bedrock-converse', target: 'bedrock', format: 'bedrock' },
];

/**
 * The target rules that fire on each rejected record. SOURCES.md names the
 * rejections about the shape of the history; each of those is caught
 * (a warning where the rule depends on the model). The rest are model or
 * parameter errors (model id, temperature, effort level, a model without
 * video, a URL the provider could not fetch) that no history rule can see.
 */
const EXPECTED_REJECTED: Record<string, Record<string, string[]>> = {
  'openai-chat': {
    // History shape: an input_audio part, which gpt-5-mini does not take.
    'test_multimodal_tool_return_matrix[direct-binary-audio-openai_chat].yaml': [
      'openai-chat/audio-input (warn)',
    ],
    'test_openai_o1_mini_system_role[developer].yaml': [],
    'test_openai_o1_mini_system_role[system].yaml': [],
    'test_openai_web_search_tool_model_not_supported.yaml': [],
  },
  'openai-responses': {
    // DeepSeek wants each output before the next assistant message; OpenAI accepts
    // interleaving (providers.md §2, "Order"), so no openai-responses rule may flag it.
    'test_deepseek_responses_rejects_interleaved_function_calls.yaml': [],
    'test_multimodal_tool_return_matrix[direct-url-audio-openai_responses].yaml': [],
    'test_multimodal_tool_return_matrix[direct-url_force_download-audio-openai_responses].yaml': [],
    'test_multimodal_tool_return_matrix[tool_return_content-url_force_download-audio-openai_responses].yaml':
      [],
    'test_openai_responses_model_http_error.yaml': [],
    // History shape: a reasoning item followed by the assistant text re-sent without its msg_ id.
    'test_openai_responses_thinking_with_modified_history.yaml': [
      'openai-responses/reasoning-followed (error)',
    ],
  },
  anthropic: {
    'test_anthropic_explicit_effort_xhigh_unsupported_model_errors.yaml': [],
  },
  gemini: {
    'test_model_sees_multiple_images[google_vertex].yaml': [],
  },
  'bedrock-converse': {
    'test_bedrock_error.yaml': [],
    'test_bedrock_streaming_error.yaml': [],
    'test_multimodal_tool_return_matrix[direct-binary-video-bedrock_claude].yaml': [],
    // History shape: an S3 document in a tool result (Nova: "extraneous key [toolResult]").
    'test_multimodal_tool_return_matrix[direct-uploaded_file-document-bedrock_nova].yaml': [
      'bedrock/s3-location (warn)',
    ],
    // A model error ("doesn't support the s3Uri field"), caught by the same warning.
    'test_multimodal_tool_return_matrix[direct-uploaded_file-image-bedrock_claude].yaml': [
      'bedrock/s3-location (warn)',
    ],
    // History shape: an S3 document beside a tool result (Claude: "document.source.type: Field required").
    'test_multimodal_tool_return_matrix[tool_return_content-uploaded_file-document-bedrock_claude].yaml':
      ['bedrock/s3-location (warn)'],
  },
};

/**
 * The warnings target rules give accepted records: limits that depend on the
 * model, which is why those rules warn (SOURCES.md, "Accepted records that a
 * naive checker would flag").
 */
const EXPECTED_ACCEPTED_WARNINGS: Record<string, Record<string, string[]>> = {
  'openai-chat': {},
  'openai-responses': {},
  anthropic: {
    // pause_turn continuations: deliberate prefills.
    'test_pause_turn_web_search_streaming_vcr.yaml': ['anthropic/trailing-assistant'],
    'test_pause_turn_web_search_vcr.yaml': ['anthropic/trailing-assistant'],
  },
  gemini: {
    // gemini-2.0-flash, which needs no thought signatures.
    'test_google_model_iter_stream.yaml': ['gemini/thought-signature'],
    'test_google_tool_config_any_with_tool_without_args.yaml': ['gemini/thought-signature'],
    'test_google_tool_output.yaml': ['gemini/thought-signature'],
  },
  'bedrock-converse': {
    // Claude took a history that starts with the assistant.
    'test_bedrock_anthropic_message_history_starting_with_response.yaml': ['bedrock/first-user'],
    // Moonshot (Kimi) took its own call id "functions.get_temperature:0".
    'test_bedrock_moonshotai_tool_call.yaml': ['bedrock/tool-use-id'],
    // Claude took an S3 document inside a tool result.
    'test_multimodal_tool_return_matrix[direct-uploaded_file-document-bedrock_claude].yaml': [
      'bedrock/s3-location',
    ],
  },
};

/** One recorded request. */
interface CorpusRecord {
  /** `folder/file.jsonl:line`. */
  where: string;
  /** The cassette's file name. */
  cassette: string;
  text: string;
  accepted: boolean;
  request: JsonValue;
}

/** The records of a folder: the pydantic-ai JSONL files, one recorded exchange per line. */
function records(folder: string): CorpusRecord[] {
  const dir = path.join(CORPUS, folder);
  const out: CorpusRecord[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.startsWith('pydantic-ai__') || !file.endsWith('.jsonl')) continue;
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((text, k) => {
        if (text.trim() === '') return;
        const value = JSON.parse(text) as {
          source_path: string;
          provider_accepted: boolean;
          request: JsonValue;
        };
        out.push({
          where: `${folder}/${file}:${k + 1}`,
          cassette: path.basename(value.source_path),
          text,
          accepted: value.provider_accepted,
          request: value.request,
        });
      });
  }
  return out;
}

/** Lints one record as `histlint lint --target <target> --pointer /request` does. */
function lintRecord(f: Folder, record: CorpusRecord): Finding[] {
  const rules = new SeverityResolver({}, ROOT, new Map(), f.target).forFile(undefined);
  return lintText(record.text, { rules, pointer: ['request'] });
}

/** What the target rules found on the records of one folder. */
interface Verdicts {
  accepted: { record: CorpusRecord; findings: Finding[] }[];
  rejected: { record: CorpusRecord; findings: Finding[] }[];
  /** Records the engine could not read as a conversation. */
  unread: string[];
}

const verdicts = new Map<string, Verdicts>();
for (const f of FOLDERS) {
  // Until an adapter is registered, its folder cannot be read (see the skipped tests).
  if (formatByName(f.format) === undefined) continue;
  const v: Verdicts = { accepted: [], rejected: [], unread: [] };
  for (const record of records(f.folder)) {
    const all = lintRecord(f, record);
    for (const x of all)
      if (x.ruleId === 'not-a-conversation' || x.ruleId === 'parse-error')
        v.unread.push(`${record.where}: ${x.message}`);
    const findings = all.filter((x) => x.ruleId.startsWith(`${f.target}/`));
    (record.accepted ? v.accepted : v.rejected).push({ record, findings });
  }
  verdicts.set(f.folder, v);
}

/** `rule (severity)` for each distinct finding rule, sorted. */
function fired(findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((x) => `${x.ruleId} (${x.severity})`))].sort();
}

describe.each(FOLDERS)('--target $target on shared/corpus/$folder', (f) => {
  const v = verdicts.get(f.folder);
  const skip = v === undefined;
  const why = skip
    ? ` (skipped: the ${f.format} format is not registered in src/formats/index.ts)`
    : '';

  it.skipIf(skip)(`reads every record as ${f.format}${why}`, () => {
    expect(v!.unread).toEqual([]);
    for (const { record } of [...v!.accepted, ...v!.rejected]) {
      expect(detectFormat(record.request).name, record.where).toBe(f.format);
    }
  });

  it.skipIf(skip)(`gives accepted records no error from a ${f.target} rule${why}`, () => {
    expect(v!.accepted.length).toBeGreaterThan(0);
    const errors = v!.accepted.flatMap(({ record, findings }) =>
      findings
        .filter((x) => x.severity === 'error')
        .map((x) => `${record.where} ${record.cassette}: ${x.ruleId}: ${x.message}`),
    );
    expect(errors).toEqual([]);
  });

  it.skipIf(skip)(`warns on accepted records only where the model decides${why}`, () => {
    const table = Object.fromEntries(
      v!.accepted
        .filter(({ findings }) => findings.length > 0)
        .map(({ record, findings }) => [
          record.cassette,
          [...new Set(findings.map((x) => x.ruleId))].sort(),
        ]),
    );
    expect(table).toEqual(EXPECTED_ACCEPTED_WARNINGS[f.folder]);
  });

  it.skipIf(skip)(`catches the rejected records whose error is about the history${why}`, () => {
    const table = Object.fromEntries(
      v!.rejected.map(({ record, findings }) => [record.cassette, fired(findings)]),
    );
    expect(table).toEqual(EXPECTED_REJECTED[f.folder]);
  });
});
