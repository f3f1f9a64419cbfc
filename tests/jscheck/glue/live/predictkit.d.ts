// See ../binding.d.ts.
export * from "../binding";
export { default } from "../binding";
