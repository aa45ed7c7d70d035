import 'reflect-metadata';
import { isPlainObject } from '@nestjs/common/internal';
import { JsonText } from '@interlock/domain';

// NestJS's router asks of every answer whether it is a plain object (`pickStreamingBody`); for a
// JsonText the answer is no, and it comes without printing a constructor's source (json-text.ts).
describe('a JsonText answer in NestJS’s router', () => {
  it('is not a plain object, told without Function.prototype.toString', () => {
    const toString = jest.spyOn(Function.prototype, 'toString');
    try {
      expect(isPlainObject(new JsonText('{"a":1}'))).toBe(false);
      expect(toString).not.toHaveBeenCalled();
      // The check does print constructors for other instances (what the JsonText is spared).
      class Other {}
      expect(isPlainObject(new Other())).toBe(false);
      expect(toString).toHaveBeenCalled();
    } finally {
      toString.mockRestore();
    }
  });

  it('is still a JsonText to the adapters (`instanceof`) and parses to its value', () => {
    const text = new JsonText<{ a: number }>('{"a":1}');
    expect(text instanceof JsonText).toBe(true);
    expect(text.parse()).toEqual({ a: 1 });
    expect(isPlainObject({ a: 1 })).toBe(true);
  });
});
