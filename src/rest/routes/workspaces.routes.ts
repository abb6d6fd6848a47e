import { workspaceOperations as workspaces } from '../../domain/workspaces/workspace.operations.js';
import { get } from '../route.js';

export const workspaceRoutes = [get('/v1/workspaces', workspaces.get)];
