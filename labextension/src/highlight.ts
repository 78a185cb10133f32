/**
 * Per-cell syntax highlighting in sandbox notebooks: the notebook gives every cell the kernel's
 * language (shell); a cell whose first line is `%%js` is JavaScript. The notebook re-applies
 * its mimetype whenever the kernel's language is known again, so the cell's choice is
 * re-applied on every mimetype change as well as on every edit of its first line.
 * The editor loads a language asynchronously on each change and applies whichever load ends
 * last; so the cell's language is set only once every language involved has loaded and the
 * editor has applied its pending loads, which makes that change the last one applied.
 */
import { ICellModel } from '@jupyterlab/cells';
import { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { NotebookPanel } from '@jupyterlab/notebook';

/** A new code cell model's mimetype, before the notebook sets its own. */
const CELL_DEFAULT = 'text/x-ipython';

const CELL_LANGUAGES: [RegExp, string][] = [[/^%%js\b/, 'text/javascript']];

function wantedMimeType(model: ICellModel, notebookMimeType: string): string {
  const firstLine = model.sharedModel.getSource().split('\n', 1)[0].trim();
  for (const [magic, mimeType] of CELL_LANGUAGES) {
    if (magic.test(firstLine)) {
      return mimeType;
    }
  }
  return notebookMimeType;
}

/** Keep the cells of ``panel`` highlighted by their cell magic. */
export function followCellLanguages(panel: NotebookPanel, languages: IEditorLanguageRegistry): void {
  const notebook = panel.content;
  const seen = new WeakSet<ICellModel>();
  const apply = async (model: ICellModel) => {
    const wanted = wantedMimeType(model, notebook.codeMimetype);
    if (model.type !== 'code' || model.mimeType === wanted) {
      return;
    }
    const involved = [CELL_DEFAULT, notebook.codeMimetype, model.mimeType, wanted];
    await Promise.all(involved.map(mime => languages.getLanguage(mime).catch(() => null)));
    // the editor's own loads of these languages now end in microtasks: let them run first
    await new Promise(resolve => setTimeout(resolve, 0));
    if (model.mimeType !== wanted && wantedMimeType(model, notebook.codeMimetype) === wanted) {
      model.mimeType = wanted;
    }
  };
  const follow = (model: ICellModel) => {
    if (seen.has(model)) {
      return;
    }
    seen.add(model);
    model.sharedModel.changed.connect(() => void apply(model));
    model.mimeTypeChanged.connect(() => void apply(model));
    void apply(model);
  };
  const followAll = () => {
    for (const model of notebook.model?.cells ?? []) {
      follow(model);
    }
  };
  let cells = notebook.model?.cells;
  cells?.changed.connect(followAll);
  notebook.modelChanged.connect(() => {
    cells?.changed.disconnect(followAll);
    cells = notebook.model?.cells;
    cells?.changed.connect(followAll);
    followAll();
  });
  followAll();
}
