/**
 * Each format's typed hint interfaces (conversation, message, part) name exactly the keys its
 * `HINTS` list declares: checked by the compiler (`npm run typecheck`), so a hint added to one and
 * not the other does not build. hints.test.ts checks the list against what the readers write.
 */
import { expectTypeOf, it } from 'vitest';
import type * as aiSdkUi from '../../src/formats/ai-sdk-ui/hints.js';
import type * as aiSdk from '../../src/formats/ai-sdk/hints.js';
import type * as anthropic from '../../src/formats/anthropic/hints.js';
import type * as bedrock from '../../src/formats/bedrock/hints.js';
import type * as gemini from '../../src/formats/gemini/hints.js';
import type * as langchain from '../../src/formats/langchain/hints.js';
import type * as chat from '../../src/formats/openai-chat/hints.js';
import type * as responses from '../../src/formats/openai-responses/hints.js';

/** The keys a format's HINTS declares. */
type Declared<H extends { HINTS: Record<string, string> }> = H['HINTS'][keyof H['HINTS']];
/** `true` when two unions hold the same members. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

it('the hint interfaces and HINTS agree, format by format', () => {
  expectTypeOf<
    Same<
      keyof (aiSdkUi.AiSdkUiConversationHints &
        aiSdkUi.AiSdkUiMessageHints &
        aiSdkUi.AiSdkUiPartHints),
      Declared<typeof aiSdkUi>
    >
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      keyof (aiSdk.AiSdkConversationHints & aiSdk.AiSdkMessageHints & aiSdk.AiSdkPartHints),
      Declared<typeof aiSdk>
    >
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      keyof (anthropic.AnthropicConversationHints &
        anthropic.AnthropicMessageHints &
        anthropic.AnthropicPartHints),
      Declared<typeof anthropic>
    >
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      keyof (bedrock.BedrockConversationHints &
        bedrock.BedrockMessageHints &
        bedrock.BedrockPartHints),
      Declared<typeof bedrock>
    >
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      keyof (gemini.GeminiConversationHints & gemini.GeminiMessageHints & gemini.GeminiPartHints),
      Declared<typeof gemini>
    >
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      keyof (chat.ChatConversationHints & chat.ChatMessageHints & chat.ChatPartHints),
      Declared<typeof chat>
    >
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      keyof (responses.ResponsesConversationHints &
        responses.ResponsesMessageHints &
        responses.ResponsesPartHints),
      Declared<typeof responses>
    >
  >().toEqualTypeOf<true>();
  expectTypeOf<
    Same<
      keyof (langchain.LangChainConversationHints &
        langchain.LangChainMessageHints &
        langchain.LangChainPartHints),
      Declared<typeof langchain>
    >
  >().toEqualTypeOf<true>();
});
