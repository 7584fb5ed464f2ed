import type { RepoLabels } from '../repos/index.js';
import { LabelsPort } from './port.js';

/** A repository's own labels as it is created, generated from a template or deleted (provided as `repos.labels`). */
export const repoLabels: RepoLabels = {
  createFromTemplates: (tx, repoId, templates) => tx.port(LabelsPort).createFromTemplates(repoId, templates),
  async copyOfRepo(tx, sourceRepoId, repoId) {
    const labels = await tx.port(LabelsPort).listOfRepo(sourceRepoId);
    await tx.port(LabelsPort).createFromTemplates(repoId, labels.map((l) => ({ name: l.name, color: l.color, description: l.description, exclusive: l.exclusive === 1 })));
  },
  deleteOfRepo: (tx, repoId) => tx.port(LabelsPort).deleteOfRepo(repoId),
};
