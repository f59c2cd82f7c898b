/**
 * The histlint format (v1 itself): its cases of fixtures/formats/histlint other than the
 * contract's (test/formats/contract.test.ts runs those), through the one fixture runner. A
 * text-only UIMessage array means the same as v1 and is read as v1 (the tie goes to v1).
 */
import { nativeFormat } from '../../src/formats/histlint/index.js';
import { describeFixtureCases } from '../helpers/formats.js';

describeFixtureCases(nativeFormat);
