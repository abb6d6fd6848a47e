import { errorLogOperations as errorLogs } from '../../domain/error-logs/error-log.operations.js';
import { get } from '../route.js';

export const errorLogRoutes = [get('/v1/error-logs', errorLogs.list)];
