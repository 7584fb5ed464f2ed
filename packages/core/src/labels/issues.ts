/**
 * What deleting a label asks of the issues that carry it. Issues sit above labels (an issue names its labels), so
 * labels declares the call and the issues domain provides it (`labels.issues`). It runs inside the caller's
 * transaction, at the point the label's deletion makes it, so the order of the writes stays as it was.
 */
import type { CoreTransaction } from '../context.js';

export interface LabelledIssues {
  /** Takes the label off every issue that carries it. */
  removeLabelEverywhere(tx: CoreTransaction, labelId: number): Promise<void>;
}

declare module '../context.js' {
  interface CoreProviders {
    'labels.issues': LabelledIssues;
  }
}
