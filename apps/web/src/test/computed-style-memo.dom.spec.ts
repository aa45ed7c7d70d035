// The component tests' getComputedStyle (src/test/computed-style-memo.ts, installed by setup.ts):
// one answer per element while the document stays as it is, a new one after any change that
// could change it.
describe('getComputedStyle in the component tests', () => {
  let box: HTMLElement;
  let item: HTMLElement;
  beforeEach(() => {
    document.body.innerHTML = '<section id="box"><p id="item">text</p></section>';
    box = document.getElementById('box') as HTMLElement;
    item = document.getElementById('item') as HTMLElement;
  });
  afterEach(() => {
    document.body.innerHTML = '';
    document.head.querySelectorAll('style[data-memo-spec]').forEach((s) => s.remove());
  });
  const display = (element: Element) => getComputedStyle(element).getPropertyValue('display');
  const visibility = (element: Element) => getComputedStyle(element).getPropertyValue('visibility');
  const addSheet = (css: string) => {
    const sheet = document.createElement('style');
    sheet.dataset.memoSpec = '';
    sheet.textContent = css;
    document.head.append(sheet);
    return sheet;
  };

  it('answers an element once while nothing changes', () => {
    const first = getComputedStyle(item);
    getComputedStyle(box);
    expect(getComputedStyle(item)).toBe(first);
    expect(first.getPropertyValue('display')).toBe('block');
  });

  it("answers again after the element's attributes, class or inline style change", () => {
    expect(display(item)).toBe('block');
    item.setAttribute('hidden', '');
    expect(display(item)).toBe('none');
    item.removeAttribute('hidden');
    expect(display(item)).toBe('block');

    addSheet('.gone { display: none; }');
    expect(display(item)).toBe('block');
    item.className = 'gone';
    expect(display(item)).toBe('none');
    item.className = '';

    expect(display(item)).toBe('block');
    item.style.display = 'none';
    expect(display(item)).toBe('none');
  });

  it('answers again after an ancestor changes what the element inherits', () => {
    expect(visibility(item)).toBe('visible');
    box.style.visibility = 'hidden';
    expect(visibility(item)).toBe('hidden');
  });

  it('answers again after the element moves under another parent', () => {
    const hidden = document.createElement('div');
    hidden.style.visibility = 'hidden';
    document.body.append(hidden);
    expect(visibility(item)).toBe('visible');
    hidden.append(item);
    expect(visibility(item)).toBe('hidden');
  });

  it('answers again after a style sheet is added or its text changes', () => {
    expect(display(item)).toBe('block');
    const sheet = addSheet('#item { display: none; }');
    expect(display(item)).toBe('none');
    sheet.textContent = '#item { display: inline; }';
    expect(display(item)).toBe('inline');
    sheet.remove();
    expect(display(item)).toBe('block');
  });
});
