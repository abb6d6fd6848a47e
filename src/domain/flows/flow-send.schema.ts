import { z } from 'zod';

/** An id as the automation tool sends it: a digit string, or a whole number. */
const looseId = (name: string) =>
  z
    .union([z.string().regex(/^\d+$/, `${name} must be a digit string`), z.number().int(`${name} must be a whole number`).positive(`${name} must be positive`)])
    .transform(String);

export const sendFlowInput = z
  .strictObject({
    flowId: looseId('flowId').meta({ description: 'The flow to send (a digit string or a number)' }),
    inboxId: looseId('inboxId').optional().meta({ description: "The inbox whose conversation it goes to; left out, the conversation the contact wrote in last" }),
  })
  .meta({ id: 'SendFlowInput' });
export type SendFlowInput = z.infer<typeof sendFlowInput>;
