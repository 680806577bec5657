/**
 * The few host APIs the core relies on that are not part of ECMAScript itself. Every target the
 * core runs on (browser window, web worker, Node 20) provides them; declaring them here keeps the
 * core's own tsconfig free of the DOM and Node type libraries, so a stray `document` or `node:`
 * import fails the type-check.
 */
interface TextDecodeOptions {
  stream?: boolean;
}
interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}
declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  decode(input?: Uint8Array, options?: TextDecodeOptions): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
