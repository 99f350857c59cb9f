// The pure core compiles against ES types only (tsconfig.core.json), without DOM or Node types.
// TextEncoder and TextDecoder exist in every runtime it runs in — browsers, workers and Node —
// so the core may use them; these are the parts of them it uses. The app's own tsconfig takes
// them from the DOM library instead.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
