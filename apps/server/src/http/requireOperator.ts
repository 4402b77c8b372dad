/**
 * Middleware for operator calls: `Authorization: Bearer <token>` with the operator token printed at start.
 */
import type { NextFunction, Request, Response } from 'express';
import { tokenMatches } from './operatorToken.ts';
import { sendError } from './sendError.ts';

export function requireOperator(operatorToken: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) {
      sendError(res, 'forbidden', 'operator token required (Authorization: Bearer <token>, printed at start)', 401);
      return;
    }
    if (!tokenMatches(match[1], operatorToken)) {
      sendError(res, 'forbidden', 'wrong operator token');
      return;
    }
    next();
  };
}
