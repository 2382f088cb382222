import { VerbatimError } from '../../../shared/errors';
import type { NewsroomSettings } from '../../../shared/ipc/newsroom-contract';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';

/** What "Check connection" answered: who you are there, or the sentence that says why not. */
export interface NewsroomAnswer {
  ok: boolean;
  message: string;
}

/**
 * The Newsroom section of Settings (issue #35). The password goes one way, to main's key store:
 * the page forgets what was typed once it is saved and only learns whether one is set.
 */
export class NewsroomSettingsStore {
  address = $state('');
  /** What is typed in the password field, until it is saved; empty keeps the stored one. */
  password = $state('');
  passwordSet = $state<boolean | undefined>(undefined);
  saving = $state(false);
  checking = $state(false);
  /** "Saved." once the address (and a password) are stored. */
  saved = $state('');
  /** Main refused the address as written (checked before anything connects). */
  addressProblem = $state<string | undefined>(undefined);
  answer = $state<NewsroomAnswer | undefined>(undefined);
  problem = $state<Problem | undefined>(undefined);

  async load(): Promise<void> {
    try {
      this.show(await api.newsroom.settings());
    } catch (error) {
      this.problem = caught(error, 'newsroom.settings');
    }
  }

  async save(): Promise<void> {
    const password = this.password === '' ? undefined : this.password;
    await this.store(password, 'Saved.');
  }

  async forgetPassword(): Promise<void> {
    await this.store(null, 'Password removed.');
  }

  /** Connects with the address as typed and the password typed, or else the stored one. */
  async check(): Promise<void> {
    this.checking = true;
    this.answer = undefined;
    this.problem = undefined;
    try {
      this.answer = await api.newsroom.check({
        address: this.address,
        ...(this.password === '' ? {} : { password: this.password }),
      });
    } catch (error) {
      this.problem = caught(error, 'newsroom.check');
    } finally {
      this.checking = false;
    }
  }

  private async store(password: string | null | undefined, done: string): Promise<void> {
    this.saving = true;
    this.saved = '';
    // The last check's answer was about what was typed before: the section now says what was saved.
    this.answer = undefined;
    this.addressProblem = undefined;
    this.problem = undefined;
    try {
      this.show(
        await api.newsroom.setSettings({
          address: this.address,
          ...(password === undefined ? {} : { password }),
        }),
      );
      this.password = '';
      this.saved = done;
    } catch (error) {
      // A refused address is the field's problem; anything else is the section's.
      if (error instanceof VerbatimError && error.code === 'invalid_input')
        this.addressProblem = error.message;
      else this.problem = caught(error, 'newsroom.setSettings');
    } finally {
      this.saving = false;
    }
  }

  private show(settings: NewsroomSettings): void {
    this.address = settings.address;
    this.passwordSet = settings.passwordSet;
  }
}

export const newsroomSettings = new NewsroomSettingsStore();
