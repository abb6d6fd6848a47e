import { tokenOperations as token } from '../../domain/auth/token.operations.js';
import { get } from '../route.js';

/** The presented token. */
export const tokenRoutes = [get('/v1/token', token.get, { errors: [400] })];
