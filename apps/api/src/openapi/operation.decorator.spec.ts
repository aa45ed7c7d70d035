import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { JsonText } from '@interlock/domain';
import { Operation } from './operation.decorator';

// @nestjs/swagger's metadata keys (its DECORATORS constants, which its package does not export).
const API_OPERATION = 'swagger/apiOperation';
const API_RESPONSE = 'swagger/apiResponse';

class Thing {
  name!: string;
}

class Other {
  count!: number;
}

const thing: Thing = { name: 'a' };

class ProbeController {
  @Operation.Get('/', 'listThings', { summary: 'Things', ok: Thing })
  list() {
    return thing;
  }

  @Operation.Post(':id/copy', 'copyThing', { summary: 'Copy', created: Thing })
  async copy() {
    return Promise.resolve(thing);
  }

  @Operation.Put(':id', 'renderThing', { summary: 'Rendered', description: 'As text', ok: Thing })
  rendered() {
    return new JsonText<Thing>('{"name":"a"}');
  }

  @Operation.Patch(':id', 'touchThing', { summary: 'Touch', noContent: 'Touched.' })
  async touch() {
    await Promise.resolve(thing);
  }

  @Operation.Delete(':id', 'dropThing', { summary: 'Drop', noContent: true })
  drop() {
    return undefined;
  }

  // The compiler holds a handler to the answer its route documents (typecheck runs this file).
  // @ts-expect-error the route answers Thing, the handler Other
  @Operation.Get('other', 'wrongThing', { summary: 'Wrong', ok: Thing })
  wrong(): Other {
    return { count: 1 };
  }

  // @ts-expect-error a 204 answers nothing
  @Operation.Delete('other', 'wrongDrop', { summary: 'Wrong', noContent: true })
  async wrongDrop() {
    return Promise.resolve(thing);
  }
}

function metadata(handler: keyof ProbeController) {
  const fn = ProbeController.prototype[handler];
  const get = (key: string): unknown => Reflect.getMetadata(key, fn);
  return {
    path: get(PATH_METADATA),
    method: RequestMethod[get(METHOD_METADATA) as RequestMethod],
    status: get(HTTP_CODE_METADATA),
    operation: get(API_OPERATION),
    responses: Object.keys((get(API_RESPONSE) ?? {}) as object),
  };
}

describe('Operation', () => {
  it('declares the method, the path, the operation and its answer in one decorator', () => {
    expect(metadata('list')).toEqual({
      path: '/',
      method: 'GET',
      status: 200,
      operation: { operationId: 'listThings', summary: 'Things' },
      responses: ['200'],
    });
    expect(metadata('copy')).toEqual({
      path: ':id/copy',
      method: 'POST',
      status: undefined,
      operation: { operationId: 'copyThing', summary: 'Copy' },
      responses: ['201'],
    });
    expect(metadata('rendered')).toMatchObject({
      method: 'PUT',
      status: 200,
      operation: { operationId: 'renderThing', summary: 'Rendered', description: 'As text' },
    });
    expect(metadata('touch')).toMatchObject({ method: 'PATCH', status: 204, responses: ['204'] });
    expect(metadata('drop')).toMatchObject({ method: 'DELETE', status: 204, responses: ['204'] });
  });
});
