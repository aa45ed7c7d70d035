/**
 * For services' unit specs: a collaborator of type `T` made of the few methods the spec drives
 * (usually `jest.fn()`s), typed as `T` so the service's constructor takes it. A method name `T`
 * does not have fails to compile; calling a method the fake leaves out throws "is not a
 * function", which is what a spec wants to hear of.
 */
export function fakeOf<T>(methods: { [K in keyof T]?: unknown }): T {
  return methods as unknown as T;
}
