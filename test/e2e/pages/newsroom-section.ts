import { expect, type Locator, type Page } from '@playwright/test';

/** The Newsroom section of Settings: the archive's address, the reporter's password and a check. */
export class NewsroomSection {
  readonly address: Locator;
  readonly password: Locator;
  readonly save: Locator;
  readonly check: Locator;
  readonly answer: Locator;

  constructor(private readonly page: Page) {
    const section = page.getByRole('group', { name: 'Newsroom' });
    this.address = section.getByLabel('Address', { exact: true });
    this.password = section.locator('#newsroom-password');
    this.save = section.getByRole('button', { name: 'Save', exact: true });
    this.check = section.getByRole('button', { name: /Check connection|Checking…/ });
    this.answer = section.getByTestId('newsroom-answer');
  }

  /** Opens the section from the sections' list, as a keyboard user would. */
  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('button', { name: 'Newsroom' })
      .click();
  }

  /** Types the address and password, saves them with Enter, and waits for "Saved.". */
  async saveAs(address: string, password: string): Promise<void> {
    await this.address.fill(address);
    await this.password.fill(password);
    await this.password.press('Enter');
    await expect(this.answer).toHaveText('Saved.');
  }

  /** The message under the address field, when main refused it. */
  addressProblem(): Locator {
    return this.page.locator('#newsroom-address-problems');
  }
}
