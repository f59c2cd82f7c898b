/**
 * The `fetch` both SDKs are given. The SDKs' own timeout ends when the
 * response headers arrive, so a server that sends its headers and then
 * stalls, mid-stream or mid-body, would hold a run forever. This fetch
 * keeps watching the body: when no bytes arrive for the timeout, the
 * request is aborted and the body fails with {@link BodyTimeoutError}.
 */

/** The body of a response stopped arriving for longer than the timeout. */
export class BodyTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no data for ${timeoutMs / 1000}s`);
    // Not "AbortError": the SDKs treat that as the caller's own abort and end a stream quietly.
    this.name = 'BodyTimeoutError';
  }
}

/** A `fetch` whose response bodies fail with {@link BodyTimeoutError} after `timeoutMs` without data. */
export function fetchWithBodyTimeout(
  timeoutMs: number,
  base: typeof fetch = globalThis.fetch,
): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const outer = init?.signal ?? undefined;
    const forward = (): void => controller.abort(outer?.reason);
    if (outer?.aborted === true) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const detach = (): void => outer?.removeEventListener('abort', forward);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: controller.signal });
    } catch (e) {
      detach();
      throw e;
    }
    const source = response.body;
    if (source === null) {
      detach();
      return response;
    }
    const reader = source.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    const stop = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
    const arm = (): void => {
      stop();
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      // The open connection keeps the process alive while a reply is awaited; the timer need not.
      timer.unref?.();
    };
    const body = new ReadableStream<Uint8Array>({
      start: arm,
      async pull(out) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            stop();
            detach();
            out.close();
            return;
          }
          arm();
          out.enqueue(value);
        } catch (e) {
          stop();
          detach();
          out.error(timedOut ? new BodyTimeoutError(timeoutMs) : e);
        }
      },
      cancel(reason) {
        stop();
        detach();
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
