/** What a Field hands its control: spread it onto the input, select or text area. */
export interface FieldControl {
  id: string;
  'aria-describedby': string;
  'aria-invalid': boolean;
}
