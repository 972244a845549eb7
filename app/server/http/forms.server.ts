import { data } from "@remix-run/node";

export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please try again.";

/** The posted form, or a 400 answer (never a 500) when the body is not a readable form. */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
}
