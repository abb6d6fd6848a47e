import { commentAutomationFolderOperations as automationFolders, sequenceFolderOperations as sequenceFolders } from '../../domain/folders/folder.operations.js';
import { del, get, post, put } from '../route.js';

/** Folders of sequences and of comment automations: the same operations, by kind; unknown parents are 404. */
export const folderRoutes = [
  get('/v1/sequence-folders', sequenceFolders.listFolders, { errors: [404] }),
  post('/v1/sequence-folders', sequenceFolders.createFolder, { status: 201, errors: [404] }),
  put('/v1/sequence-folders/{id}', sequenceFolders.updateFolder),
  del('/v1/sequence-folders/{id}', sequenceFolders.deleteFolder, { status: 204 }),
  get('/v1/comment-automation-folders', automationFolders.listFolders, { errors: [404] }),
  post('/v1/comment-automation-folders', automationFolders.createFolder, { status: 201, errors: [404] }),
  put('/v1/comment-automation-folders/{id}', automationFolders.updateFolder),
  del('/v1/comment-automation-folders/{id}', automationFolders.deleteFolder, { status: 204 }),
];
