import { screen } from '@testing-library/react';
import { renderWithApp } from '@/test/render';
import { CellNote } from './cell-note';

describe('CellNote', () => {
  it('shows the note as a line of its own', () => {
    renderWithApp(<CellNote text="ci-42" />);
    expect(screen.getByText('ci-42').tagName).toBe('P');
  });

  it.each([null, ''])('renders nothing for %j', (text) => {
    renderWithApp(
      <div data-testid="cell">
        <CellNote text={text} />
      </div>,
    );
    expect(screen.getByTestId('cell')).toBeEmptyDOMElement();
  });
});
