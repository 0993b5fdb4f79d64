pub mod did_change;
pub mod did_change_configuration;
pub mod did_close;
pub mod did_open;
pub mod did_save;
pub mod initialized;
pub mod progress_cancel;
