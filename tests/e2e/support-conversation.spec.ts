import { expect, type Browser, type Page } from "@playwright/test";
import { coverageProblems } from "./coverage";
import { holdRequests, toasts, waitForHydration } from "./profile-support";
import { screenshot, settled, signInOverHttp, signUpOverHttp, test } from "./support";

// Two-way support (docs/decisions/082), with JavaScript on and off: a person sends feedback, an
// operator replies in the console, the person reads the conversation and answers it, and the
// ticket is back in the console's inbox as open with the answer in its thread. The person and the
// operator each have a browser of their own; the operator is the console's owner that `npm test`
// makes (scripts/lib/console-operator.mjs).

/** A second browser, signed in to the console as its owner, with the project's JavaScript and viewport. */
async function operatorPage(browser: Browser, page: Page, baseURL: string) {
  const email = process.env.E2E_OPERATOR_EMAIL;
  const password = process.env.E2E_OPERATOR_PASSWORD;
  if (!email || !password) throw new Error("E2E_OPERATOR_EMAIL is not set: run the browser tests through `npm test`");
  const context = await browser.newContext({
    baseURL,
    viewport: page.viewportSize(),
    javaScriptEnabled: test.info().project.use.javaScriptEnabled,
  });
  const operator = await context.newPage();
  await signInOverHttp(operator, email, password, baseURL);
  return operator;
}

test("a person sends feedback, an operator replies in the console, the person reads the conversation and answers it, and the ticket is back in the console's inbox as open with the answer; at 320, 390 and 1280 px nothing on either page is covered and every tap target is 44 px", async ({
  page,
  browser,
  baseURL,
}) => {
  const javaScript = test.info().project.use.javaScriptEnabled;
  const message = `The check-in card froze on day 3 (${test.info().project.name} ${Date.now().toString(36)})`;

  // The person sends feedback from Help & Support.
  await signUpOverHttp(page, "conversation", baseURL, "/profile");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Help & Support" }).click();
  const feedbackForm = page.locator("form#feedback");
  await feedbackForm.getByLabel("Message").fill(message);
  await feedbackForm.getByRole("button", { name: "Submit Feedback" }).click();
  await expect(toasts(page, "Feedback submitted successfully!")).toBeVisible();
  const conversation = page.getByTestId("conversation");
  await expect(conversation.getByTestId("ticket-status")).toHaveText("Open");
  await expect(conversation).toContainText("Support will answer here, and we will let you know.");

  // The operator takes it (so that "Mine" finds it among everyone's tickets) and replies.
  const operator = await operatorPage(browser, page, baseURL!);
  await operator.goto("/admin/support");
  await settled(operator);
  await operator.getByRole("link", { name: message }).click();
  await settled(operator);
  await operator.getByRole("button", { name: "Take it" }).click();
  await expect(operator.getByText("Ticket assigned to you").first()).toBeVisible();
  // The page after "Take it" hydrated and idle before the reply is typed and sent (CI once lost the
  // click on Send reply to a page still coming alive: nothing was posted, the text stayed in the box).
  await settled(operator);
  await operator.getByLabel("Reply", { exact: true }).fill("Thanks! Which phone and browser do you use?");
  await operator.getByRole("button", { name: "Send reply" }).click();
  await expect(operator.getByText("Reply sent").first()).toBeVisible();
  await expect(operator.getByTestId("ticket-status")).toContainText("Waiting for them");
  const ticketUrl = operator.url();

  // The person reads the conversation: their message, then support's reply, waiting for them.
  await page.reload();
  if (javaScript) await page.waitForLoadState("networkidle");
  await expect(conversation.getByTestId("ticket-status")).toHaveText("Waiting for you");
  const messages = conversation.getByTestId("conversation-message");
  await expect(messages).toHaveText([
    new RegExp(`^You · \\w{3} \\d+, \\d{4}${escapeRegExp(message)}$`),
    /^Support · \w{3} \d+, \d{4}Thanks! Which phone and browser do you use\?$/,
  ]);
  await expect(conversation).toContainText("Support answered. If you need more help, answer below.");
  await screenshot(page, "support-conversation-waiting");

  // A blank answer is refused beside its field; nothing is sent.
  const answer = conversation.getByLabel("Your answer");
  await answer.fill("   ");
  await conversation.getByRole("button", { name: "Send answer" }).click();
  await expect(conversation.getByText("Please write your answer")).toBeVisible();
  await expect(conversation.getByLabel("Your answer")).toHaveAttribute("aria-invalid", "true");
  await expect(messages).toHaveCount(2);
  await screenshot(page, "support-conversation-refused");

  await conversation.getByLabel("Your answer").fill("A Pixel 8 with Chrome.\nIt froze after I pressed Check in.");
  if (javaScript) {
    // "Sending..." while the answer is on its way.
    const post = await holdRequests(page, "/profile", "POST");
    await conversation.getByRole("button", { name: "Send answer" }).click();
    await expect.poll(post.held).toBe(1);
    await expect(conversation.getByRole("button", { name: "Sending..." })).toBeDisabled();
    post.release();
  } else {
    await conversation.getByRole("button", { name: "Send answer" }).click();
  }
  await expect(toasts(page, "Answer sent")).toBeVisible();
  await expect(messages).toHaveText([
    /^You · /,
    /^Support · /,
    /^You · \w{3} \d+, \d{4}A Pixel 8 with Chrome\.\s*It froze after I pressed Check in\.$/,
  ]);
  await expect(conversation.getByTestId("ticket-status")).toHaveText("Open");
  // The box is empty for the next answer.
  await expect(conversation.getByLabel("Your answer")).toHaveValue("");
  await screenshot(page, "support-conversation-answered");
  // At 320, 390 and 1280 px (once the toasts are gone): nothing covered, every tap target 44 px.
  const viewport = page.viewportSize()!;
  await page.reload();
  await expect(toasts(page, "Answer sent")).toHaveCount(0);
  expect(await coverageProblems(page)).toEqual([]);
  await page.setViewportSize(viewport);

  // The operator finds it open again in the inbox, with the answer after their reply.
  await operator.goto("/admin/support?mine=1");
  await expect(operator.getByRole("link", { name: message })).toBeVisible();
  await operator.goto("/admin/support?view=waiting&mine=1");
  await expect(operator.getByRole("link", { name: message })).toHaveCount(0);
  await operator.goto(ticketUrl);
  await expect(operator.getByTestId("ticket-status")).toContainText("Open");
  await expect(operator.locator('[data-testid="ticket-reply"], [data-testid="ticket-answer"]')).toHaveText([
    /^Reply · .*Thanks! Which phone and browser do you use\?$/,
    /^Their answer · .*A Pixel 8 with Chrome\.\s*It froze after I pressed Check in\.$/,
  ]);
  await screenshot(operator, "console-ticket-answered");
  expect(await coverageProblems(operator)).toEqual([]);
  await operator.setViewportSize(viewport);

  // Once resolved, the conversation says so and has no form to answer.
  await operator.getByRole("button", { name: "Mark resolved" }).click();
  await expect(operator.getByText("Ticket resolved").first()).toBeVisible();
  await page.reload();
  await expect(conversation.getByTestId("ticket-status")).toHaveText("Resolved");
  await expect(conversation.getByLabel("Your answer")).toHaveCount(0);
  await expect(conversation).toContainText("This conversation is resolved.");
  await screenshot(page, "support-conversation-resolved");
  await operator.context().close();
});

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
