// The parser ships no types; e2e/support/prometheus-text.ts gives its result a shape.
declare module "parse-prometheus-text-format" {
  const parse: (input: string) => unknown;
  export default parse;
}
